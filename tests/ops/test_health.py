"""/healthz answers before host validation and the HTTPS redirect, and reports the database;
/healthz/live says the process is up; /healthz/ready checks what a service needs."""

import json
import time
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection

from ops import health, heartbeat


@pytest.mark.django_db
def test_health_ignores_allowed_hosts_and_the_https_redirect(client, settings):
    settings.ALLOWED_HOSTS = ["hotpath.example.com"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="172.18.0.5:8000")
    assert response.status_code == 200 and response.content == b"ok\n"
    for path in ("/healthz/live", "/healthz/ready"):
        assert client.get(path, HTTP_HOST="172.18.0.5:8000").status_code == 200, path
    assert client.get("/", HTTP_HOST="172.18.0.5:8000").status_code == 400  # everything else is still checked


@pytest.mark.django_db
def test_health_is_503_when_the_database_does_not_answer(client, monkeypatch):
    class BrokenCursor:
        def __enter__(self):
            raise DatabaseError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: BrokenCursor())
    response = client.get("/healthz")
    assert response.status_code == 503


def ready(client):
    response = client.get("/healthz/ready")
    return response.status_code, json.loads(response.content)


@pytest.mark.django_db
def test_ready_lists_every_check_as_ok(client):
    status, body = ready(client)
    assert status == 200 and body["status"] == "ready"
    assert body["checks"] == {name: "ok" for name in ("database", "cache", "broker", "migrations", "workers", "disk")}


def test_live_touches_nothing(client, monkeypatch):
    # No django_db mark: any database access would raise; liveness must not need one.
    monkeypatch.setattr(health, "run_checks", lambda *a, **k: pytest.fail("liveness ran the readiness checks"))
    response = client.get("/healthz/live")
    assert response.status_code == 200 and response.content == b"ok\n"


@pytest.mark.django_db
def test_ready_fails_when_the_cache_is_unreachable(client, settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    status, body = ready(client)
    assert status == 503 and body["status"] == "not ready"
    assert body["checks"]["cache"].startswith("fail: ")
    assert body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_ready_fails_when_the_cache_keeps_nothing(client, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    status, body = ready(client)
    assert status == 503 and body["checks"]["cache"] == "fail: the cache does not keep values"


@pytest.fixture
def unreachable_database():
    """The default connection pointed at a database that cannot be opened, then put back."""
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = "/nonexistent-folder/hotpath/db.sqlite3"
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    yield
    connection.close()
    connection.settings_dict.clear()
    connection.settings_dict.update(saved)


@pytest.mark.django_db(transaction=True)
def test_ready_fails_when_the_database_is_unreachable(client, unreachable_database):
    status, body = ready(client)
    assert status == 503
    assert body["checks"]["database"] == "fail: OperationalError"
    assert client.get("/healthz").status_code == 503
    assert client.get("/healthz/live").status_code == 200


@pytest.mark.django_db
def test_ready_fails_when_an_expected_worker_has_not_beaten(client, settings):
    settings.HEALTH_EXPECTED_WORKER_QUEUES = ["cpu", "gpu"]
    heartbeat.beat("celery@cpu-host", ["cpu", "check"])
    heartbeat.beat("gpu@old-host", ["gpu"], now=time.time() - 120)  # silent for two minutes
    status, body = ready(client)
    assert status == 503 and body["checks"]["workers"] == "fail: no worker seen in the last 60 s for queue gpu"
    heartbeat.beat("gpu@gpu-host", ["gpu"])
    assert ready(client)[0] == 200


@pytest.mark.django_db
def test_ready_fails_when_the_disk_is_nearly_full(client, settings):
    settings.HEALTH_MIN_FREE_DISK_MB = 2**40  # an exabyte
    status, body = ready(client)
    assert status == 503 and body["checks"]["disk"].startswith("fail: ") and "MiB free in" in body["checks"]["disk"]


@pytest.mark.django_db
def test_ready_fails_when_a_migration_is_not_applied(client, monkeypatch):
    from django.db.migrations.executor import MigrationExecutor

    monkeypatch.setattr(health, "_migrations_applied_at", None)
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("grader", "0099_future")])
    status, body = ready(client)
    assert status == 503 and body["checks"]["migrations"] == "fail: 1 migrations not applied"


@pytest.mark.django_db
def test_health_command_checks_this_worker(capsys):
    name = f"celery@{uuid.uuid4().hex}"
    with pytest.raises(CommandError):
        call_command("health", "--worker", name)
    out = json.loads(capsys.readouterr().out)
    assert out["checks"]["this_worker"].startswith(f"fail: {name} has not beaten")
    heartbeat.beat(name, ["cpu"])
    call_command("health", "--worker", name)
    assert json.loads(capsys.readouterr().out)["status"] == "ready"
