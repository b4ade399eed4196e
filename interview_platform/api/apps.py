from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "interview_platform.api"
    label = "api"
    verbose_name = "API and personal access tokens"
