"""A submission's grading, from claim to close.

The Submission row is the truth. A worker claims a row with a conditional
UPDATE (queued -> running), so the same task delivered twice grades once; it
writes the report and the final state in one transaction and only then sends
submission_graded, exactly once per row.
"""

import logging
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from grader import grading
from grader.errors import PlatformError

from .. import progress
from ..models import CHECK_PURPOSES, Submission
from ..signals import submission_graded
from ..states import Status, Verdict

logger = logging.getLogger(__name__)

#: Celery limits for one grading task: above the longest sandbox run.
TASK_SOFT_TIME_LIMIT_S = grading.MAX_SANDBOX_WALL_S + 60
TASK_HARD_TIME_LIMIT_S = TASK_SOFT_TIME_LIMIT_S + 60
#: A row 'running' for longer than this lost its worker; it may be claimed again.
RECLAIM_RUNNING_AFTER_S = TASK_HARD_TIME_LIMIT_S + 60
#: Claims per row before the platform gives up and says so.
MAX_ATTEMPTS = 3

GAVE_UP_MESSAGE = (
    "Hotpath tried to grade this submission {attempts} times and the grading machinery failed each time. "
    "This is our problem, not your code's; please submit again later."
)


def grading_mode(purpose):
    return "check" if purpose in CHECK_PURPOSES else "full"


def claim(submission_id):
    """queued -> running (or a 'running' row whose worker vanished). Returns the
    claimed row, or None when another worker has it or it is already done."""
    now = timezone.now()
    stale = now - timedelta(seconds=RECLAIM_RUNNING_AFTER_S)
    claimed = (
        Submission.objects.filter(pk=submission_id)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RUNNING, started_at__lt=stale))
        .update(status=Status.RUNNING, attempts=F("attempts") + 1, started_at=now)
    )
    if not claimed:
        return None
    return Submission.objects.select_related("exercise__question", "user").get(pk=submission_id)


def run_grading(submission_id, backend=None):
    """Claim, grade and record one submission; safe to call twice. Re-raises
    PlatformError (after putting the row back in the queue) so Celery retries,
    until MAX_ATTEMPTS, when the row is closed as internal_error."""
    submission = claim(submission_id)
    if submission is None:
        logger.info("submission %s is already claimed or graded; nothing to do", submission_id)
        return None
    live = progress.ProgressStore(submission.pk)
    live.start()
    try:
        report = grading.grade(
            submission.exercise,
            submission.code,
            mode=grading_mode(submission.purpose),
            backend=backend,
            progress=live,
            custom_input=submission.custom_input,
        )
    except (PlatformError, SoftTimeLimitExceeded) as exc:
        error = (
            exc
            if isinstance(exc, PlatformError)
            else PlatformError("grading.soft_time_limit", "the task ran out of time")
        )
        logger.error("grading submission %s failed (attempt %s): %s", submission.pk, submission.attempts, error)
        if submission.attempts >= MAX_ATTEMPTS:
            return fail(submission, error)
        release(submission, error)
        raise error from exc
    except Exception as exc:  # a bug on our side: do not retry it forever
        logger.exception("grading submission %s crashed", submission.pk)
        return fail(submission, PlatformError("grading.crashed", repr(exc)))
    finally:
        live.clear()
    return finish(submission, report)


def release(submission, error):
    """running -> queued after a platform failure, keeping the error for staff."""
    Submission.objects.filter(pk=submission.pk, status=Status.RUNNING, attempts=submission.attempts).update(
        status=Status.QUEUED, platform_error=str(error)[:2000]
    )


def finish(submission, report):
    """Write the report and the final state; send submission_graded if this
    call is the one that closed the row."""
    speedup_ci = report.get("speedup_ci") or [None, None]
    fields = {
        "status": Status.DONE,
        "verdict": report["verdict"],
        "message": report.get("message") or "",
        "report": report,
        "speedup": report.get("speedup"),
        "speedup_ci_low": speedup_ci[0],
        "speedup_ci_high": speedup_ci[1],
        "peak_memory_bytes": report.get("peak_memory_bytes"),
        "reference_peak_memory_bytes": report.get("reference_peak_memory_bytes"),
        "hardware": report.get("hardware") or "",
        "finished_at": timezone.now(),
    }
    return _close(submission, fields)


def fail(submission, error):
    """Close a row the platform could not grade, saying so honestly."""
    message = (
        GAVE_UP_MESSAGE.format(attempts=submission.attempts)
        if submission.attempts >= MAX_ATTEMPTS
        else PlatformError.PUBLIC_MESSAGE
    )
    fields = {
        "status": Status.DONE,
        "verdict": Verdict.INTERNAL_ERROR,
        "message": message,
        "report": None,
        "platform_error": str(error)[:2000],
        "finished_at": timezone.now(),
    }
    return _close(submission, fields)


def _close(submission, fields):
    with transaction.atomic():
        closed = (
            Submission.objects.filter(pk=submission.pk, attempts=submission.attempts)
            .exclude(status=Status.DONE)
            .update(**fields)
        )
    if not closed:
        logger.warning("submission %s was closed by another worker; dropping this result", submission.pk)
        return None
    graded = Submission.objects.select_related("exercise__question", "user").get(pk=submission.pk)
    submission_graded.send(sender=Submission, submission=graded)
    return graded
