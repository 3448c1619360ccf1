"""The group "Federação": its members edit the national registry (players) and import rating lists
(issue 15.5). Site administrators keep every permission; directors and arbiters no longer rewrite players."""

from django.contrib.auth.management import create_permissions
from django.db import migrations, models

FEDERATION_GROUP = "Federação"
PERMISSIONS = [("tournaments", "change_player"), ("tournaments", "add_ratinglist"), ("tournaments", "view_player")]


def create_group(apps, schema_editor):
    # Permissions are made after migrations; make them now so the group can hold them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=FEDERATION_GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=FEDERATION_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0006_player_search_name"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="auditentry",
            index=models.Index(fields=["object_type", "object_id"], name="audit_object"),
        ),
        migrations.RunPython(create_group, remove_group),
    ]
