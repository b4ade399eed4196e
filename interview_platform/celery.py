"""The Celery app. Grading tasks go to queue `cpu` or `gpu`; the Submission row
holds every result, so Celery's own result backend is off."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")

# interview_platform.mail is no app, so autodiscovery would not find its task.
app = Celery("hotpath", include=["interview_platform.mail"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_ignore_result=True,
    task_default_queue="cpu",
    task_track_started=False,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
    beat_schedule={
        # Requeues submissions whose task went missing; closes those that keep failing.
        "grader-sweep-stuck-submissions": {"task": "grader.sweep_stuck_submissions", "schedule": 300.0},
        # Submits assessments whose candidate ran out of time and never came back.
        "teams-finalise-expired-sessions": {"task": "teams.finalise_expired_sessions", "schedule": 60.0},
    },
)
app.autodiscover_tasks()
