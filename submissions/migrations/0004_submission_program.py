"""Each submission's program fingerprint (submissions.same_code), so a leaderboard can
count the same code graded several times by its middle grading."""
from django.db import migrations, models

from submissions.same_code import fingerprint

BATCH = 2000


def fingerprint_existing(apps, schema_editor):
    Submission = apps.get_model("grader", "Submission")
    rows = Submission.objects.filter(program="").only("id", "code").order_by("id")
    batch = []
    for submission in rows.iterator(chunk_size=BATCH):
        submission.program = fingerprint(submission.code)
        batch.append(submission)
        if len(batch) == BATCH:
            Submission.objects.bulk_update(batch, ["program"])
            batch = []
    Submission.objects.bulk_update(batch, ["program"])


class Migration(migrations.Migration):

    dependencies = [
        ("grader", "0003_assessment_check_purpose"),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="program",
            field=models.CharField(
                blank=True, editable=False, max_length=32,
                help_text="The code's fingerprint (submissions.same_code): gradings of the same program share it.",
            ),
        ),
        migrations.RunPython(fingerprint_existing, migrations.RunPython.noop, elidable=True),
    ]
