from django.apps import AppConfig
from django.core.signals import setting_changed


class SubmissionsConfig(AppConfig):
    """The web and worker side of grading: submissions, their queues and reports.
    The label stays "grader", the app's name before the judge moved out (grader/),
    so the tables, migrations and model references of every database carry over."""

    name = "submissions"
    label = "grader"
    verbose_name = "Submissions"

    def ready(self):
        configure_judge()
        setting_changed.connect(_reconfigure_judge)


JUDGE_SETTINGS = {"SANDBOX_BACKEND": "backend", "SANDBOX_CPU_IMAGE": "cpu_image", "SANDBOX_GPU_IMAGE": "gpu_image"}


def configure_judge():
    """Hand the judge (grader/) its configuration from Django's settings."""
    from django.conf import settings

    from grader import config

    config.configure(**{field: getattr(settings, name) for name, field in JUDGE_SETTINGS.items()})


def _reconfigure_judge(setting, **kwargs):
    if setting in JUDGE_SETTINGS:
        configure_judge()
