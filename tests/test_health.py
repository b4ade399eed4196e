"""/healthz answers before host validation and the HTTPS redirect, and reports the database."""
import pytest
from django.db import DatabaseError

from interview_platform import health


@pytest.mark.django_db
def test_health_ignores_allowed_hosts_and_the_https_redirect(client, settings):
    settings.ALLOWED_HOSTS = ["hotpath.example.com"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="172.18.0.5:8000")
    assert response.status_code == 200 and response.content == b"ok\n"
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
