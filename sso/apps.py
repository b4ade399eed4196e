from django.apps import AppConfig


class SsoConfig(AppConfig):
    """Single sign-on: each organisation's own OpenID Connect provider (sso/services.py)."""

    name = "sso"
    verbose_name = "Single sign-on"
