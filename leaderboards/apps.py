from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    label = "leaderboards"

    def ready(self):
        from . import receivers  # noqa: F401  (connects to submissions.signals.submission_graded)
