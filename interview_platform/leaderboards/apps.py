from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "interview_platform.leaderboards"
    label = "leaderboards"

    def ready(self):
        from . import receivers  # noqa: F401  (connects to grader.signals.submission_graded)
