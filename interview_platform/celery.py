"""The Celery app. Grading tasks go to queue `cpu` or `gpu`; the Submission row
holds every result, so Celery's own result backend is off."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")

app = Celery("hotpath")
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
)
app.autodiscover_tasks()
