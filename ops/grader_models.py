"""The grader's models and services, found through the app registry.

The Submission model's app label is "grader" whichever package holds it, so ops never
imports it by path: apps.get_model finds it, and its services module sits beside it."""
import importlib

from django.apps import apps


def submission_model():
    return apps.get_model("grader", "Submission")


def models_module():
    return importlib.import_module(submission_model().__module__)


def services_module():
    package = submission_model().__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.services")


#: The Celery queues Hotpath grades on (models.queue_for picks one per submission).
QUEUES = ("cpu", "check", "gpu")
