"""What the periodic sweep and a starting worker tidy: submissions whose task or worker
went missing, and what dead workers' sandboxes left behind.

A worker killed mid-grading leaves its row 'running'. The sweep takes such rows back only
after RECLAIM_RUNNING_AFTER_S (no live grading can last that long), so each grading task
also notes in the shared cache which submission its worker holds (hold / let_go): when a
worker of the same name starts again (a restarted container keeps its host name), it puts
the row its predecessor held back in the queue at once (requeue_held), trying again while
Redis or the database is still away (give_back_held)."""

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from grader.errors import PlatformError

from ..models import Submission
from ..states import Status
from . import gpu_workers, lifecycle, queueing

logger = logging.getLogger(__name__)

#: A row still queued after this may have lost its broker message: queue it again.
REQUEUE_QUEUED_AFTER_S = 10 * 60
HOLDING_KEY = "grader:holding:{worker}"
WORKER_STOPPED = "the grading worker stopped mid-run"
#: How often a starting worker tries again to give back its predecessor's row while the cache,
#: the database or the broker is unreachable (a worker restarted beside a restarting Redis).
GIVE_BACK_RETRY_S = 5


def hold(worker, submission_id):
    """Notes that `worker` is grading `submission_id` now. Never raises: with the cache down the
    grading goes on, and only the quick take-back after a crash is lost (the sweep remains)."""
    try:
        cache.set(HOLDING_KEY.format(worker=worker), submission_id, timeout=lifecycle.RECLAIM_RUNNING_AFTER_S)
    except Exception:  # noqa: BLE001 - the note must never stop the grading it describes
        logger.warning("could not note that %s holds submission %s", worker, submission_id, exc_info=True)


def let_go(worker):
    """`worker` ended its grading, whichever way: nothing is held. Never raises, as hold."""
    try:
        cache.delete(HOLDING_KEY.format(worker=worker))
    except Exception:  # noqa: BLE001 - a stale note only makes a restart requeue a finished row: a no-op
        logger.warning("could not clear what %s holds", worker, exc_info=True)


def release_lost_claim(submission_id):
    """A row whose grading ran but whose result could not be written (the database went away
    while the sandbox ran): 'running' -> 'queued' under its current claim, without a new task
    (the caller grades it again itself). True when the row moved."""
    submission = Submission.objects.filter(pk=submission_id, status=Status.RUNNING).first()
    if submission is None:
        return False
    lifecycle.release(submission, PlatformError("grading.result_lost", "the database went away mid-grading"))
    return True


def requeue_held(worker, started_at=None):
    """At the start of `worker` (at `started_at`, default now): the row a previous worker of
    that name held when it stopped, back in the queue (or closed, past MAX_ATTEMPTS). Returns
    the sweep's counts. A 'running' row is taken back only when its claim began before
    `started_at`, so a row this worker has claimed since is never taken from it. A row still
    'queued' (the predecessor stopped before its claim, or a try of this call moved the row but
    could not send its task) is sent again: a second message for one row is a no-op (claim).
    Raises RedisError, DatabaseError or the broker's OperationalError when one is away; the
    note is cleared only once the row is back, so calling again finishes the job."""
    key = HOLDING_KEY.format(worker=worker)
    submission_id = cache.get(key)
    counts = {"requeued": 0, "failed": 0}
    if submission_id is not None:
        before = started_at or timezone.now()
        lost = Submission.objects.filter(pk=submission_id).filter(
            Q(status=Status.QUEUED) | Q(status=Status.RUNNING, started_at__lt=before)
        )
        counts = _take_back(lost.select_related("exercise"), gpu_online=True)
        cache.delete(key)
    if counts["requeued"] or counts["failed"]:
        logger.warning("worker %s: took back submission %s its predecessor held", worker, submission_id)
    return counts


def give_back_held(worker, started_at, give_up_after_s=lifecycle.RECLAIM_RUNNING_AFTER_S):
    """requeue_held(worker, started_at), tried every GIVE_BACK_RETRY_S while Redis, the database
    or the broker is away, for at most `give_up_after_s` (after which the sweep reclaims the row
    anyway). Runs in its own thread at a worker's start, while the worker takes tasks; returns
    requeue_held's counts, or None when it gave up."""
    deadline = time.monotonic() + give_up_after_s
    while True:
        try:
            return requeue_held(worker, started_at)
        except (RedisError, DatabaseError, BrokerError) as exc:
            if time.monotonic() + GIVE_BACK_RETRY_S > deadline:
                logger.error("worker %s: gave up giving back what its predecessor held: %s", worker, exc)
                return None
            logger.warning(
                "worker %s: cannot give back what its predecessor held yet (%s); again in %s s",
                worker,
                exc,
                GIVE_BACK_RETRY_S,
            )
            if isinstance(exc, DatabaseError):
                connection.close()  # one the database dropped is never usable again: the next try opens one
            time.sleep(GIVE_BACK_RETRY_S)


def sweep_stuck_submissions():
    """Requeue rows whose task went missing; close those that ran out of attempts.
    Returns counts, for logs and tests."""
    now = timezone.now()
    lost_worker = Submission.objects.filter(
        status=Status.RUNNING, started_at__lt=now - timedelta(seconds=lifecycle.RECLAIM_RUNNING_AFTER_S)
    )
    lost_message = Submission.objects.filter(
        status=Status.QUEUED, created_at__lt=now - timedelta(seconds=REQUEUE_QUEUED_AFTER_S)
    )
    counts = _take_back((lost_worker | lost_message).select_related("exercise"), gpu_workers.gpu_worker_online())
    if counts["requeued"] or counts["failed"]:
        logger.warning("sweep: requeued %(requeued)s, failed %(failed)s stuck submission(s)", counts)
    return counts


def _take_back(submissions, gpu_online):
    """Each row queued again (a running one only while its claim is unchanged), or closed as
    internal_error once it ran out of attempts. Returns the counts."""
    counts = {"requeued": 0, "failed": 0}
    for submission in submissions:
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
            ).update(status=Status.QUEUED, platform_error=WORKER_STOPPED)
            if not moved:
                continue
        queueing.enqueue(submission)
        counts["requeued"] += 1
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
