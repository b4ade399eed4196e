from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('authoring', '0003_publish_actions'),
    ]

    operations = [
        migrations.AlterField(
            model_name='authoringevent',
            name='action',
            field=models.CharField(choices=[('created', 'Created it'), ('edited', 'Edited it'), ('validated', 'Validated'), ('new_version', 'Created a new version'), ('exported', 'Exported to the bank'), ('published', 'Made it public'), ('unpublished', 'Took it off the public pages')], max_length=20),
        ),
    ]
