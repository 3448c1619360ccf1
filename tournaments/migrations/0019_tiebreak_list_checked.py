"""Issue 25, item 4: the custom tiebreak list is validated by the model and is a JSON array in the database. A value
stored before that is not an array becomes the empty list (the CBJD profile, which the standings used anyway
because they could not read it); a list with unknown names stays, and the pages fall back with a warning."""

from django.db import migrations, models

import tournaments.setup.tiebreak_list


def arrays_only(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk, keys in Tournament.objects.values_list("pk", "tiebreak_keys"):
        if not isinstance(keys, list):
            Tournament.objects.filter(pk=pk).update(tiebreak_keys=[])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_federation"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="tiebreak_keys",
            field=models.JSONField(
                blank=True,
                default=list,
                validators=[tournaments.setup.tiebreak_list.tiebreak_keys_validator],
                verbose_name="custom tiebreak list",
            ),
        ),
        migrations.RunPython(arrays_only, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("tiebreak_keys__json_typeof", "array")), name="tournament_tiebreak_keys_list"
            ),
        ),
    ]
