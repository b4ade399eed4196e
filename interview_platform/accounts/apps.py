from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "interview_platform.accounts"
    label = "accounts"
