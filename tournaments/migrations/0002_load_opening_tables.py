from django.db import migrations


def load(apps, schema_editor):
    from tournaments.setup.openings_data import load_opening_tables

    load_opening_tables(apps.get_model("tournaments", "OpeningTable"), apps.get_model("tournaments", "Opening"))


def unload(apps, schema_editor):
    apps.get_model("tournaments", "OpeningTable").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]
