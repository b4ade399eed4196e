"""Fingerprint every submission again: the normaliser in submissions.same_code now keeps
what a program imports (issue 29), so fingerprints made before differ from those made
now and would split or merge programs wrongly. Then run `manage.py
rebuild_leaderboards` (docs/architecture.md, "Which grading counts")."""
from django.db import migrations

from submissions.same_code import fingerprint

BATCH = 2000


def fingerprint_again(apps, schema_editor):
    Submission = apps.get_model("grader", "Submission")
    batch = []
    for submission in Submission.objects.only("id", "code").order_by("id").iterator(chunk_size=BATCH):
        submission.program = fingerprint(submission.code)
        batch.append(submission)
        if len(batch) == BATCH:
            Submission.objects.bulk_update(batch, ["program"])
            batch = []
    Submission.objects.bulk_update(batch, ["program"])


class Migration(migrations.Migration):

    dependencies = [
        ("grader", "0004_submission_program"),
    ]

    operations = [
        migrations.RunPython(fingerprint_again, migrations.RunPython.noop, elidable=True),
    ]
