"""Log lines with a request id (web) and a submission id (worker); JSON lines on request.

settings.LOGGING comes from logging_config(): LOG_FORMAT=json makes every line one JSON
object (python-json-logger) with `time`, `level`, `logger`, `message`, `request_id` and
`submission_id`; plain text otherwise. The ids come from context variables that
RequestIdMiddleware (web) and the Celery task signals (ops.signals, worker) set, and a
logging filter copies them onto each record, so no call site has to pass them.

Importable from settings: nothing here touches Django's settings or models at import.
"""

import logging
import re
import time
import uuid
from contextvars import ContextVar

request_id_var = ContextVar("request_id", default=None)
submission_id_var = ContextVar("submission_id", default=None)

#: An incoming X-Request-ID is kept when it looks like an id (a proxy's or a client's), and
#: replaced otherwise: no spaces, quotes or control characters reach the logs or headers.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{7,127}")
REQUEST_ID_HEADER = "X-Request-ID"

access_logger = logging.getLogger("hotpath.access")


class ContextFilter(logging.Filter):
    """Puts the current request id and submission id on every record (None when there is none)."""

    def filter(self, record):
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        if getattr(record, "submission_id", None) is None:
            record.submission_id = submission_id_var.get()
        return True


def logging_config(log_format="plain", level="INFO"):
    """The LOGGING dict: one console handler, plain text or JSON lines."""
    formatters = {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(submission_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "ops.logs.ContextFilter"}},
        "formatters": formatters,
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": log_format, "filters": ["context"]},
        },
        "root": {"handlers": ["console"], "level": level},
    }


def new_request_id(incoming=None):
    if incoming and SANE_REQUEST_ID.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Gives each request an id (the incoming X-Request-ID when sane), sends it back in the
    response's X-Request-ID, puts it on every log line of the request, and logs one access
    line per request (logger hotpath.access: method, path, view, status, duration)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = new_request_id(request.headers.get(REQUEST_ID_HEADER))
        request.request_id = request_id
        # Set, not reset afterwards: Django logs a 4xx/5xx (logger django.request) after the
        # middleware returns, and that line should carry the id too. The next request sets its own.
        request_id_var.set(request_id)
        started = time.monotonic()
        _tag_sentry(request_id)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        match = getattr(request, "resolver_match", None)
        access_logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "view": match.view_name if match else None,
                "status": response.status_code,
                "duration_ms": round((time.monotonic() - started) * 1000, 1),
            },
        )
        return response


_sentry_on = False


def _tag_sentry(request_id):
    if _sentry_on:
        import sentry_sdk

        sentry_sdk.get_isolation_scope().set_tag("request_id", request_id)


def init_sentry(dsn, environment="production", traces_sample_rate=0.0, **options):
    """Error tracking with sentry-sdk: Django and Celery errors, no personal data.
    Called from settings only when SENTRY_DSN is set."""
    global _sentry_on
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,
        **options,
    )
    _sentry_on = True
