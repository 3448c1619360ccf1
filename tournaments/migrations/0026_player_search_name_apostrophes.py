"""The registry's folded names drop apostrophes too (issue 37.5): "Sant’Anna" and "Sant'Anna" are one name."""

from django.db import migrations

from tournaments.domain.names import fold


def refold_search_names(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    changed = []
    for player in Player.objects.only("pk", "name", "search_name").iterator(chunk_size=2000):
        key = fold(player.name)[:120]
        if key != player.search_name:
            player.search_name = key
            changed.append(player)
    Player.objects.bulk_update(changed, ["search_name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_tournament_arbiters_may_pair"),
    ]

    operations = [
        migrations.RunPython(refold_search_names, migrations.RunPython.noop),
    ]
