"""Celery tasks: thin wrappers around submissions.services (lifecycle, housekeeping)."""

from celery import shared_task
from celery.signals import worker_ready

from grader import host_limits
from grader.errors import PlatformError

from .services import housekeeping, lifecycle


@shared_task(
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
def grade_submission(submission_id):
    lifecycle.run_grading(submission_id)


@shared_task(name="grader.sweep_stuck_submissions", ignore_result=True)
def sweep_stuck_submissions():
    return housekeeping.sweep_stuck_submissions()


@worker_ready.connect
def remove_stale_sandboxes(**kwargs):
    housekeeping.remove_stale_sandboxes()


@worker_ready.connect
def measure_host_limits(**kwargs):
    """The roofline's roofs, measured where this worker grades (grader.host_limits)."""
    host_limits.measure_at_worker_start()
