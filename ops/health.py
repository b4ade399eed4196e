"""Health endpoints, answered by the first middleware, before anything reads the Host
header or redirects to HTTPS, so neither ALLOWED_HOSTS nor SECURE_SSL_REDIRECT applies:
container health checks and load balancers ask by address, over plain HTTP.

- GET /healthz/live: 200 "ok" while this process serves requests. Touches nothing else,
  so a database outage never gets the web containers restarted.
- GET /healthz/ready: 200 when every check below passes, 503 naming the ones that fail,
  as JSON ({"status": "ready" | "not ready", "checks": {name: "ok" | "fail: ..."}}).
  The details name an exception class only; the full error goes to the log.
- GET /healthz: the original contract, kept for load balancers and scripts that use it:
  "ok" (200) while this process reaches its database, 503 when it cannot.

Readiness checks (run_checks): the database answers; the cache keeps a value; the Celery
broker accepts a connection; every migration is applied; a worker for each queue in
HEALTH_EXPECTED_WORKER_QUEUES beat in the last minute (ops.heartbeat; none expected by
default); at least HEALTH_MIN_FREE_DISK_MB free where the sandbox writes its jobs (the temp
folder) and in the run folder (file cache, filesystem broker). `manage.py health` runs the
same checks from a shell, for the workers' container health checks.
"""

import json
import logging
import shutil
import tempfile
import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.http import HttpResponse

from . import heartbeat

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
LIVE_PATH = "/healthz/live"
READY_PATH = "/healthz/ready"
#: Once every migration is applied, this process believes it for this long (the check loads
#: every migration file, which is too slow for a probe every few seconds).
MIGRATIONS_TRUSTED_S = 300
_migrations_applied_at = None


def _database_answers():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


class CheckFailed(Exception):
    pass


def check_database():
    for alias in connections:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                raise CheckFailed(f"{alias} answered oddly")


def check_cache():
    key, value = f"ops:health:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, timeout=30)
    kept = cache.get(key)
    cache.delete(key)
    if kept != value:
        raise CheckFailed("the cache does not keep values")


def check_broker():
    # The project's Celery app (interview_platform.celery, set current when the project loads).
    from celery import current_app

    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=settings.HEALTH_TIMEOUT_S)


def check_migrations():
    global _migrations_applied_at
    if _migrations_applied_at is not None and time.monotonic() - _migrations_applied_at < MIGRATIONS_TRUSTED_S:
        return
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        raise CheckFailed(f"{len(plan)} migrations not applied")
    _migrations_applied_at = time.monotonic()


def check_workers():
    missing = [queue for queue in settings.HEALTH_EXPECTED_WORKER_QUEUES if not heartbeat.fresh(queue)]
    if missing:
        raise CheckFailed(f"no worker seen in the last {heartbeat.FRESH_S} s for queue {', '.join(missing)}")


def check_disk():
    minimum = settings.HEALTH_MIN_FREE_DISK_MB * 1024 * 1024
    for path in dict.fromkeys([tempfile.gettempdir(), str(settings.RUN_DIR)]):
        try:
            free = shutil.disk_usage(path).free
        except FileNotFoundError:
            continue
        if free < minimum:
            raise CheckFailed(f"{free // 2**20} MiB free in {path}, below {settings.HEALTH_MIN_FREE_DISK_MB} MiB")


CHECKS = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "migrations": check_migrations,
    "workers": check_workers,
    "disk": check_disk,
}


def run_checks(extra=None, checks=None):
    """{name: "ok" | "fail: reason"} for every check, and whether all passed."""
    results = {}
    for name, check in {**(CHECKS if checks is None else checks), **(extra or {})}.items():
        try:
            check()
            results[name] = "ok"
        except CheckFailed as exc:
            results[name] = f"fail: {exc}"
            logger.warning("readiness check %s failed: %s", name, exc)
        except Exception as exc:  # noqa: BLE001 - any error means not ready; say which kind
            results[name] = f"fail: {type(exc).__name__}"
            logger.warning("readiness check %s failed", name, exc_info=True)
    return results, all(result == "ok" for result in results.values())


def readiness_response():
    results, ready = run_checks()
    body = json.dumps({"status": "ready" if ready else "not ready", "checks": results}, indent=1) + "\n"
    return HttpResponse(body, status=200 if ready else 503, content_type="application/json")


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path.rstrip("/") or "/"
        if path == LIVE_PATH:
            return HttpResponse("ok\n", content_type="text/plain")
        if path == READY_PATH:
            return readiness_response()
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        if _database_answers():
            return HttpResponse("ok\n", content_type="text/plain")
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
