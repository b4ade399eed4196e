"""Small, strict readers for settings that come from the environment.

Each helper fails loudly (ImproperlyConfigured) on a value it cannot parse,
so a typo in a deployment shows up at start-up instead of as odd behaviour.
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name, default=None):
    value = os.environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"{name} must be set in the environment")
        return default
    return value


def env_bool(name, default):
    raw = os.environ.get(name)
    if raw is None:
        return default
    lowered = raw.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name, default, minimum=None):
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum of {minimum}")
    return value


def env_list(name, default):
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name, default, choices):
    value = os.environ.get(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of: {', '.join(sorted(choices))}")
    return value


def env_email_url(name, default):
    """Django's EMAIL_* settings from one URL (django-environ's schemes):
    smtp://user:password@host:25, smtp+tls://...:587, smtp+ssl://...:465,
    consolemail://, filemail:///path, memorymail://, dummymail://."""
    import environ

    url = os.environ.get(name, default)
    try:
        return environ.Env.email_url_config(url)
    except ImproperlyConfigured as exc:
        raise ImproperlyConfigured(f"{name}={url!r} is not an e-mail URL: {exc}") from None


def env_float(name, default, minimum=None, maximum=None):
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ImproperlyConfigured(f"{name}={value} is outside {minimum}..{maximum}")
    return value
