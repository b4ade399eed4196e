"""The grader's models and services, found through the app registry.

The Submission model's app label is "grader" whichever package holds it, so ops never
imports it by path: apps.get_model finds it, and its services package sits beside it."""

import importlib

from django.apps import apps


def submission_model():
    return apps.get_model("grader", "Submission")


def models_module():
    return importlib.import_module(submission_model().__module__)


def gpu_workers_module():
    """The services module that keeps the GPU worker's heartbeat (gpu_worker_online, record_gpu_heartbeat)."""
    package = submission_model().__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.services.gpu_workers")


#: The Celery queues Hotpath grades on (models.queue_for picks one per submission).
QUEUES = ("cpu", "check", "gpu")
