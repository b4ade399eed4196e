"""Hotpath settings. Everything that differs between machines comes from the
environment through interview_platform.config, which fails loudly on bad values.

With nothing set, the app runs on SQLite with a filesystem Celery broker and
the bubblewrap sandbox, so `make run` needs no server.
"""

import os
import tempfile
from pathlib import Path

import environ
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured

from ops.logs import init_sentry, logging_config

from .config import env_bool, env_choice, env_email_url, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = Path(env_str("HOTPATH_RUN_DIR", str(BASE_DIR / ".run")))

DEFAULT_SECRET_KEY = "insecure-dev-key-change-me"
# Off unless asked for: the debug pages show settings (DATABASE_URL with its password) to anyone.
# `make run` asks for it (scripts/run_dev.py). Serving with the built-in SECRET_KEY and DEBUG off is
# refused in wsgi.py, so management commands and the tests still run without a key of their own.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", DEFAULT_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "accounts",
    "questions",
    "submissions",
    "teams",
    "practice",
    "authoring",
    "leaderboards",
    "mock_interviews",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api",
    "mydata",
    "rooms",
    "channels",
    "sso",
    "django_prometheus",
    "ops",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first and last: request counts and latency
    "ops.logs.RequestIdMiddleware",  # every log line of the request carries its id (X-Request-ID)
    "ops.health.HealthCheckMiddleware",  # before the next: /healthz ignores ALLOWED_HOSTS and the HTTPS redirect
    "ops.metrics.MetricsTokenMiddleware",  # a scrape with METRICS_TOKEN, likewise (ops/metrics.py)
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy below
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "teams.middleware.PracticeGateMiddleware",  # a sitting's questions are not open in Practice meanwhile
    "mock_interviews.middleware.MockInterviewGateMiddleware",  # likewise a running mock interview's
    "interview_platform.not_found.NotFoundPageMiddleware",  # last (the user is known): our 404 page under DEBUG too
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "interview_platform.urls"
WSGI_APPLICATION = "interview_platform.wsgi.application"
# HTTP and the interview rooms' websockets (rooms/consumers.py), served by uvicorn (make run, compose).
ASGI_APPLICATION = "interview_platform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "interview_platform" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "questions.context_processors.bank_version",
            ],
            # Every measured figure on every page is written by these filters.
            "builtins": ["submissions.figures"],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
try:
    DATABASES = {"default": environ.Env.db_url_config(DATABASE_URL)}
except Exception as exc:  # environ raises several types for a malformed URL
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not a database URL: {exc}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the worker share the file: wait for a lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Take the write lock when a transaction begins: a read that later writes cannot then
    # fail at once with "database is locked" when another process writes meanwhile.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # A file, not memory: the browser tests' Celery worker process must see the test database.
    # One per test run (the pid), so runs side by side do not overwrite each other's.
    _test_db = Path(tempfile.gettempdir()) / f"hotpath-test-{os.getpid()}.sqlite3"
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", str(_test_db))
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "questions:browse"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Production images (Dockerfile) collect static files with content hashes in their names and
# pre-compressed copies, which WhiteNoise serves with year-long cache lifetimes. Off elsewhere:
# a manifest exists only after collectstatic, and development and the tests serve the sources.
if env_bool("STATIC_MANIFEST", False):
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# Mail leaves through the Celery task mail.send (interview_platform/mail.py), which
# delivers with what EMAIL_URL names: e.g. smtp+tls://user:password@smtp.example.com:587.
_email = env_email_url("EMAIL_URL", "consolemail://")
EMAIL_BACKEND = "interview_platform.mail.QueuedEmailBackend"
EMAIL_DELIVERY_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"] or "localhost"
EMAIL_PORT = _email["EMAIL_PORT"] or 25
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"] or None
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Hotpath <noreply@hotpath.local>")

# Caches back rate limits and the "GPU worker online" heartbeat, so they must be
# shared between processes (and machines once Redis is configured).
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(RUN_DIR / "cache"),
        }
    }

# Interview rooms' messages between connections: Redis when configured (any number of
# processes), otherwise in the one process that serves them (`make run`).
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Interview rooms (rooms/): how long an invitation link lets the candidate in; the notes' size.
ROOMS_INVITE_TTL_HOURS = env_int("ROOMS_INVITE_TTL_HOURS", 24, minimum=1)
ROOMS_NOTES_MAX_CHARS = env_int("ROOMS_NOTES_MAX_CHARS", 20_000, minimum=1000)

# Celery: Redis when configured, otherwise a filesystem broker that needs no server.
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=60),
        # Priorities 0..9, lowest first: submissions.services.queueing.fair_priority orders work round-robin by user.
        "priority_steps": list(range(10)),
        "sep": ":",
        "queue_order_strategy": "priority",
    }
else:
    # The transport ignores the host; naming one keeps kombu from warning "No hostname was supplied".
    CELERY_BROKER_URL = "filesystem://localhost/"
    # kombu's transport with each message written to a hidden name and renamed into place:
    # the stock one can hand a worker a half-written (empty) message and lose it.
    CELERY_BROKER_TRANSPORT = "interview_platform.filesystem_broker:Transport"
    _broker_dir = RUN_DIR / "broker"
    # kombu's filesystem transport expects its folders to exist. Its control folder
    # (exchange bindings) defaults to ./control in the working directory: keep it here too.
    for _folder in ("out", "processed", "control"):
        (_broker_dir / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# Grading.
SANDBOX_BACKEND = env_choice("SANDBOX_BACKEND", "bwrap", {"bwrap", "docker"})
SANDBOX_CPU_IMAGE = env_str("SANDBOX_CPU_IMAGE", "hotpath-sandbox-cpu:latest")
SANDBOX_GPU_IMAGE = env_str("SANDBOX_GPU_IMAGE", "hotpath-sandbox-gpu:latest")
SUBMISSION_MAX_BYTES = env_int("SUBMISSION_MAX_BYTES", 64 * 1024, minimum=1024)
SUBMISSION_MAX_QUEUED_PER_USER = env_int("SUBMISSION_MAX_QUEUED_PER_USER", 5, minimum=1)
SUBMISSION_RATE = env_str("SUBMISSION_RATE", "20/m")
# Assessments: a candidate with a sitting in progress cannot open its questions in Practice
# (teams.middleware); the browser's integrity events, per sitting (django-ratelimit rate).
TEAMS_BLOCK_PRACTICE_DURING_SITTING = env_bool("TEAMS_BLOCK_PRACTICE_DURING_SITTING", True)
TEAMS_SIGNAL_RATE = env_str("TEAMS_SIGNAL_RATE", "60/m")
# Webhook endpoints (teams.webhooks) must be https to public addresses; this also allows
# loopback ones (http or https), for development and the tests only.
TEAMS_WEBHOOK_ALLOW_LOOPBACK = env_bool("TEAMS_WEBHOOK_ALLOW_LOOPBACK", DEBUG)
# Organisations' own identity providers (sso/): https only; this also allows plain http to loopback
# addresses, for development and the tests only. Each request to a provider waits at most
# SSO_HTTP_TIMEOUT seconds.
SSO_ALLOW_HTTP_LOOPBACK = env_bool("SSO_ALLOW_HTTP_LOOPBACK", DEBUG)
SSO_HTTP_TIMEOUT = env_float("SSO_HTTP_TIMEOUT", 10.0, 1.0, 60.0)
# Looking up which organisation an e-mail address signs in through (/sso/), per client address
# (django-ratelimit rate; sso/ratelimits.py): each answer tells whether a domain uses single sign-on.
SSO_FIND_RATE = env_str("SSO_FIND_RATE", "10/5m")
# Account pages (django-ratelimit rates, e.g. "10/5m"): per client address, and per username or
# e-mail asked for (accounts/ratelimits.py).
LOGIN_RATE = env_str("LOGIN_RATE", "10/5m")
SIGNUP_RATE = env_str("SIGNUP_RATE", "5/h")
PASSWORD_RESET_RATE = env_str("PASSWORD_RESET_RATE", "5/h")
VERIFICATION_MAIL_RATE = env_str("VERIFICATION_MAIL_RATE", "3/h")
if env_bool("TRUST_X_FORWARDED_FOR", False):
    # Behind the TLS proxy every request comes from its address: count the client's instead.
    RATELIMIT_IP_META_KEY = "accounts.ratelimits.forwarded_client_ip"

# The JSON API under /api/v1/ (api): personal access tokens for scripts
# and the `hotpath` client, the session (with CSRF) for the browser; errors as {code, message}.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.PersonalAccessTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.handle",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Hotpath API",
    "DESCRIPTION": "Practise performance-engineering exercises from your own tools. Authenticate with "
    "`Authorization: Bearer <token>` (a personal access token from your profile page).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {"SubmissionStatusEnum": "submissions.states.Status.CHOICES"},
    # Swagger UI served from the sidecar package: no CDN, the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

# Operations (ops/, docs/operations.md): logs, error tracking, metrics, health.
# LOG_FORMAT=json: one JSON object a line, each with its request id (web) or submission id (worker).
LOGGING = logging_config(env_choice("LOG_FORMAT", "plain", {"plain", "json"}), env_str("LOG_LEVEL", "INFO"))
SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:  # off unless set: nothing is sent anywhere by default
    init_sentry(
        SENTRY_DSN, env_str("SENTRY_ENVIRONMENT", "production"), env_float("SENTRY_TRACES_SAMPLE_RATE", 0.0, 0.0, 1.0)
    )
# /metrics: a scraper sends `Authorization: Bearer $METRICS_TOKEN`; unset, only signed-in staff see it.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters (secrets.token_urlsafe(32))")
PROMETHEUS_EXPORT_MIGRATIONS = False  # readiness checks migrations (/healthz/ready)
# /healthz/ready and `manage.py health`: the queues that must have a worker seen in the last minute.
HEALTH_EXPECTED_WORKER_QUEUES = env_list("HEALTH_EXPECTED_WORKER_QUEUES", [])
HEALTH_MIN_FREE_DISK_MB = env_int("HEALTH_MIN_FREE_DISK_MB", 1024, minimum=0)
HEALTH_TIMEOUT_S = env_int("HEALTH_TIMEOUT_S", 3, minimum=1)
# No inline script anywhere: scripts come from our origin, or carry the request's nonce
# ({{ request.csp_nonce }}, added to the header only on pages that use it). Inline styles stay
# allowed: KaTeX, the code editor and Swagger UI write style elements and attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.NONCE],
        "style-src": [csp.SELF, "'unsafe-inline'"],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF, "data:"],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
# HTTPS behind a TLS proxy: opt-in, since each needs that proxy (docker-compose.yml turns them on).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    # Only behind a proxy that sets this header itself, or anyone could claim HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
