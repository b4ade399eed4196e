"""Keep the leaderboards current as the grader finishes submissions."""
from django.dispatch import receiver

from grader.signals import submission_graded

from . import services


@receiver(submission_graded, dispatch_uid="leaderboards.record_submission")
def record_graded_submission(sender, submission, **kwargs):
    services.record_submission(submission)
