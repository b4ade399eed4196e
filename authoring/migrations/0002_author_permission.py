"""The author permission follows its model: teams 0002 made `teams.author_questions` (on
the content type teams.authoringevent) and gave it to the "Authors" group. Renaming that
content type to authoring.authoringevent makes the same permission row
`authoring.author_questions`, so the group and any user keep it, with no new row."""
from django.conf import settings
from django.db import migrations

MODEL = "authoringevent"


def _repoint(apps, old_label, new_label):
    ContentType = apps.get_model("contenttypes", "ContentType")
    old = ContentType.objects.filter(app_label=old_label, model=MODEL).first()
    if old is None:
        return
    new = ContentType.objects.filter(app_label=new_label, model=MODEL).first()
    if new is None:
        old.app_label = new_label
        old.save(update_fields=["app_label"])
        return
    # Both exist (post_migrate ran in between): hand each grant of an old permission to the new one.
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    for permission in Permission.objects.filter(content_type=old):
        target, _ = Permission.objects.get_or_create(
            content_type=new, codename=permission.codename, defaults={"name": permission.name}
        )
        for group in Group.objects.filter(permissions=permission):
            group.permissions.add(target)
        for user in User.objects.filter(user_permissions=permission):
            user.user_permissions.add(target)
        permission.delete()


def forwards(apps, schema_editor):
    _repoint(apps, "teams", "authoring")


def backwards(apps, schema_editor):
    _repoint(apps, "authoring", "teams")


class Migration(migrations.Migration):
    dependencies = [
        ("authoring", "0001_initial"),
        ("teams", "0002_authors_group"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
