"""What the periodic sweep and a starting worker tidy: submissions whose task or worker
went missing, and what dead workers' sandboxes left behind."""

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from grader.errors import PlatformError

from ..models import Submission
from ..states import Status
from . import gpu_workers, lifecycle, queueing

logger = logging.getLogger(__name__)

#: A row still queued after this may have lost its broker message: queue it again.
REQUEUE_QUEUED_AFTER_S = 10 * 60


def sweep_stuck_submissions():
    """Requeue rows whose task went missing; close those that ran out of attempts.
    Returns counts, for logs and tests."""
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0}
    lost_worker = Submission.objects.filter(
        status=Status.RUNNING, started_at__lt=now - timedelta(seconds=lifecycle.RECLAIM_RUNNING_AFTER_S)
    )
    lost_message = Submission.objects.filter(
        status=Status.QUEUED, created_at__lt=now - timedelta(seconds=REQUEUE_QUEUED_AFTER_S)
    )
    gpu_online = gpu_workers.gpu_worker_online()
    for submission in (lost_worker | lost_message).select_related("exercise"):
        if submission.attempts >= lifecycle.MAX_ATTEMPTS:
            if lifecycle.fail(
                submission, PlatformError("grading.gave_up", f"stuck after {submission.attempts} attempts")
            ):
                counts["failed"] += 1
            continue
        if submission.queue == "gpu" and not gpu_online:
            continue  # its message waits in the gpu queue; the page says no GPU worker is online
        if submission.status == Status.RUNNING:
            moved = Submission.objects.filter(
                pk=submission.pk, status=Status.RUNNING, attempts=submission.attempts
            ).update(status=Status.QUEUED, platform_error="the grading worker stopped mid-run")
            if not moved:
                continue
        queueing.enqueue(submission)
        counts["requeued"] += 1
    if counts["requeued"] or counts["failed"]:
        logger.warning("sweep: requeued %(requeued)s, failed %(failed)s stuck submission(s)", counts)
    return counts


def remove_stale_sandboxes():
    """Remove what sandboxes of dead workers left behind: on this machine, job
    directories and cgroups (bwrap); on the Docker engine, expired sandbox
    containers. Each worker calls it when it starts."""
    if settings.SANDBOX_BACKEND == "docker":
        from grader.sandbox.docker import DockerSandbox

        return DockerSandbox.remove_stale()
    from grader.sandbox.bwrap import BwrapSandbox

    return BwrapSandbox.remove_stale()
