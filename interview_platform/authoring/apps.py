from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "interview_platform.authoring"
    label = "authoring"
