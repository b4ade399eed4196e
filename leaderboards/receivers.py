"""Keep the leaderboards current as the grader finishes submissions."""

import logging

from django.dispatch import receiver

from submissions.signals import submission_graded

from . import services

logger = logging.getLogger(__name__)


@receiver(submission_graded, dispatch_uid="leaderboards.record_submission")
def record_graded_submission(sender, submission, **kwargs):
    # A leaderboard is a cache of Submission rows: failing to update it must not fail the
    # grading that triggered it. `manage.py rebuild_leaderboards` repairs any gap.
    try:
        services.record_submission(submission)
    except Exception:
        logger.exception("Leaderboards not updated for submission %s; run rebuild_leaderboards", submission.pk)
