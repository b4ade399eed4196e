from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "interview_platform.leaderboards"
    label = "leaderboards"
