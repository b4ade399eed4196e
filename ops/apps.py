from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running Hotpath: health endpoints, Prometheus metrics, request ids and JSON logs."""

    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        # Celery signals (submission id in worker logs, worker heartbeats, mail failures) and the
        # grader's platform-failure signal: connected in every process, used where they fire.
        from . import signals

        signals.connect()
