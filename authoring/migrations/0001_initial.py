"""AuthoringEvent moves here from teams. The table stays (Meta.db_table =
"teams_authoringevent"), so this migration creates the model in Django's state only;
teams 0004 removes it from teams' state, also without touching the database."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("teams", "0003_item_target_speedup"),
        ("questions", "0002_question_hints"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuthoringEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("action", models.CharField(choices=[("validated", "Validated"), ("new_version", "Created a new version"), ("exported", "Exported to the bank")], max_length=20)),
                        ("detail", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("exercise_version", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="authoring_events", to="questions.exerciseversion")),
                        ("question", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="authoring_events", to="questions.question")),
                        ("user", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "teams_authoringevent",
                        "ordering": ["-created_at"],
                        "permissions": [("author_questions", "Can edit, validate and export bank questions")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
