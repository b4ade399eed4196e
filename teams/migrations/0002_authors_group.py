"""The "Authors" group: staff in it may edit, validate and export bank questions
from /teams/authoring/ (now /authoring/) without being superusers. The permission
moved with its model: authoring 0002 re-points it to authoring.author_questions."""
from django.db import migrations

GROUP_NAME = "Authors"
PERMISSION = ("author_questions", "Can edit, validate and export bank questions")


def create_authors_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    # Permissions are normally created after migrations; make this one now so the group can hold it.
    content_type, _ = ContentType.objects.get_or_create(app_label="teams", model="authoringevent")
    codename, name = PERMISSION
    permission, _ = Permission.objects.get_or_create(content_type=content_type, codename=codename, defaults={"name": name})
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    group.permissions.add(permission)


def remove_authors_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("teams", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_authors_group, remove_authors_group)]
