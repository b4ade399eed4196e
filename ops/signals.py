"""What ops listens to in the web and the worker processes.

- before_task_publish / task_prerun / task_postrun: the request id travels with a task
  in a message header, and a grading task's submission id is on every log line it makes;
- worker_ready / worker_shutdown: each worker's heartbeat thread (ops.heartbeat);
- task_retry / task_failure: e-mail failures (task `mail.send`) and the grader's platform
  errors when a grading will be retried; submission_graded: the grader's platform errors
  when it gives up on a submission (internal_error), and the harness's overhead per timed
  call of each size in the report. All kept in the shared cache (ops.counters), since they
  happen in workers that Prometheus does not scrape;
- teams' webhook_delivery_attempted: each try of a webhook delivery, by outcome (delivered,
  retried, failed), counted the same way.
"""

import importlib
import logging
import re

from celery import signals as celery_signals

from . import counters, heartbeat
from .logs import request_id_var, submission_id_var
from .metrics import HARNESS_OVERHEAD, OVERHEAD_BUCKETS

logger = logging.getLogger(__name__)

GRADING_TASK = "grader.grade_submission"
MAIL_TASK = "mail.send"
REQUEST_ID_HEADER = "hotpath_request_id"
#: Platform error ids (grader.errors.PlatformError) that mean the sandbox never started.
SANDBOX_START_ERRORS = frozenset(
    {
        "sandbox.docker_unavailable",
        "sandbox.create_failed",
        "sandbox.job_copy_failed",
        "sandbox.start_failed",
        "sandbox.bwrap_missing",
        "sandbox.job_dir",
        "sandbox.setup_failed",
        "sandbox.target_unsupported",
    }
)
_ERROR_ID = re.compile(r"\[([a-z0-9_.]+)\]")

_heartbeat = None


def count_platform_error(error_id, outcome):
    counters.increment("platform_errors", error_id=error_id, outcome=outcome)
    if error_id in SANDBOX_START_ERRORS:
        counters.increment("sandbox_start_failures", error_id=error_id)


def on_publish(headers=None, **kwargs):
    request_id = request_id_var.get()
    if request_id and headers is not None:
        headers.setdefault(REQUEST_ID_HEADER, request_id)


def on_prerun(task=None, args=None, kwargs=None, **extra):
    request_id_var.set(getattr(task.request, REQUEST_ID_HEADER, None) if task is not None else None)
    submission_id = None
    if task is not None and task.name == GRADING_TASK:
        submission_id = args[0] if args else (kwargs or {}).get("submission_id")
    submission_id_var.set(submission_id)


def on_postrun(**kwargs):
    request_id_var.set(None)
    submission_id_var.set(None)


def on_worker_ready(sender=None, **kwargs):
    global _heartbeat
    name = getattr(sender, "hostname", None) or "celery"
    try:
        queues = [queue.name for queue in sender.task_consumer.queues]
    except AttributeError:
        queues = list(sender.app.amqp.queues.consume_from or {}) if sender is not None else []
    _heartbeat = heartbeat.HeartbeatThread(name, queues)
    _heartbeat.start()
    logger.info("worker %s beats every %s s for queues %s", name, heartbeat.INTERVAL_S, ",".join(queues))


def on_worker_shutdown(**kwargs):
    if _heartbeat is not None:
        _heartbeat.stop()


def on_task_retry(sender=None, reason=None, **kwargs):
    name = getattr(sender, "name", None)
    if name == MAIL_TASK:
        counters.increment("email_failures", outcome="retried")
    elif name == GRADING_TASK:
        error = getattr(reason, "exc", reason)
        count_platform_error(getattr(error, "error_id", "unknown"), "retried")


def on_task_failure(sender=None, **kwargs):
    if getattr(sender, "name", None) == MAIL_TASK:
        counters.increment("email_failures", outcome="failed")


def on_submission_graded(submission=None, **kwargs):
    if submission is None:
        return
    observe_harness_overhead(submission)
    if not submission.platform_error or submission.verdict != "internal_error":
        return
    match = _ERROR_ID.match(submission.platform_error)
    count_platform_error(match.group(1) if match else "unknown", "gave_up")


def observe_harness_overhead(submission):
    """Each timed size's transfer_overhead_s in the report (none for quick checks, GPU gradings
    and failures before timing), into the hotpath_harness_overhead_seconds histogram."""
    sizes = (submission.report or {}).get("sizes") or []
    overheads = [entry.get("transfer_overhead_s") for entry in sizes if isinstance(entry, dict)]
    queue = submission.queue if overheads else None
    for overhead in overheads:
        if isinstance(overhead, (int, float)) and overhead >= 0:
            counters.observe(HARNESS_OVERHEAD, float(overhead), OVERHEAD_BUCKETS, queue=queue)


def on_webhook_delivery_attempted(outcome=None, **kwargs):
    counters.increment("webhook_deliveries", outcome=outcome)


def connect():
    celery_signals.before_task_publish.connect(on_publish, dispatch_uid="ops.publish")
    celery_signals.task_prerun.connect(on_prerun, dispatch_uid="ops.prerun")
    celery_signals.task_postrun.connect(on_postrun, dispatch_uid="ops.postrun")
    celery_signals.worker_ready.connect(on_worker_ready, dispatch_uid="ops.worker_ready")
    celery_signals.worker_shutdown.connect(on_worker_shutdown, dispatch_uid="ops.worker_shutdown")
    celery_signals.task_retry.connect(on_task_retry, dispatch_uid="ops.task_retry")
    celery_signals.task_failure.connect(on_task_failure, dispatch_uid="ops.task_failure")
    from teams.signals import webhook_delivery_attempted

    webhook_delivery_attempted.connect(on_webhook_delivery_attempted, dispatch_uid="ops.webhook_delivery_attempted")
    from .grader_models import submission_model

    package = submission_model().__module__.rsplit(".", 1)[0]
    grader_signals = importlib.import_module(f"{package}.signals")
    grader_signals.submission_graded.connect(on_submission_graded, dispatch_uid="ops.submission_graded")
