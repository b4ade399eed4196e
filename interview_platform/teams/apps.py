from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "interview_platform.teams"
    label = "teams"
