"""Celery tasks: thin wrappers around submissions.services (lifecycle, housekeeping)."""

import threading
import time

from celery import shared_task
from celery.exceptions import Reject
from celery.signals import worker_ready
from django import db
from django.db import DatabaseError
from django.utils import timezone
from redis.exceptions import RedisError

from grader import host_limits
from grader.errors import PlatformError

from .services import housekeeping, lifecycle

#: How long a grading whose result could not be written waits before it is graded again.
DATABASE_RETRY_S = 15


@shared_task(
    bind=True,
    name="grader.grade_submission",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=lifecycle.TASK_SOFT_TIME_LIMIT_S,
    time_limit=lifecycle.TASK_HARD_TIME_LIMIT_S,
    autoretry_for=(PlatformError,),
    retry_backoff=10,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=lifecycle.MAX_ATTEMPTS,
)
def grade_submission(self, submission_id, result_lost=False):
    """Grades one submission (lifecycle.run_grading), noting which one this worker holds meanwhile
    (housekeeping.hold). When the database or Redis (the cache that carries the grading's live
    progress) goes away while the row is claimed, the grading or its result is lost and the row
    stays 'running' under this claim: the task retries with result_lost, which puts the row back
    in the queue before grading it again. Where the broker went too, so that the retry cannot be
    queued (Celery would drop the message), it waits here and grades again once, in this task."""
    worker = self.request.hostname or "celery"
    housekeeping.hold(worker, submission_id)
    try:
        _grade(submission_id, result_lost)
    except (DatabaseError, RedisError) as exc:
        try:
            raise self.retry(
                exc=exc, countdown=DATABASE_RETRY_S, args=[submission_id], kwargs={"result_lost": True}
            ) from exc
        except Reject:
            time.sleep(DATABASE_RETRY_S)
            _grade(submission_id, result_lost=True)
    finally:
        housekeeping.let_go(worker)


def _grade(submission_id, result_lost):
    if result_lost:
        housekeeping.release_lost_claim(submission_id)
    lifecycle.run_grading(submission_id)


@shared_task(name="grader.sweep_stuck_submissions", ignore_result=True)
def sweep_stuck_submissions():
    return housekeeping.sweep_stuck_submissions()


@worker_ready.connect
def remove_stale_sandboxes(**kwargs):
    housekeeping.remove_stale_sandboxes()


@worker_ready.connect
def requeue_held_submission(sender=None, **kwargs):
    """A restarted worker (same name) gives back the grading its killed predecessor held: in a
    thread, since Redis or the database may still be coming back and the worker need not wait."""
    worker = getattr(sender, "hostname", None) or "celery"
    started_at = timezone.now()
    threading.Thread(target=_give_back_held, args=(worker, started_at), name="give-back-held", daemon=True).start()


def _give_back_held(worker, started_at):
    try:
        housekeeping.give_back_held(worker, started_at)
    finally:
        db.connection.close()  # the thread's own connection


@worker_ready.connect
def measure_host_limits(**kwargs):
    """The roofline's roofs, measured where this worker grades (grader.host_limits)."""
    host_limits.measure_at_worker_start()
