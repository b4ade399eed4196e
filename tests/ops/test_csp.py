"""Headers: a Content-Security-Policy without inline script, nonces where a page needs one,
and `check --deploy` clean with docker-compose.yml's settings."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings

ROOT = Path(django_settings.BASE_DIR)


def directives(response):
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_every_page_gets_a_policy_without_inline_script(client):
    policy = directives(client.get("/"))
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["default-src"] == ["'self'"] and policy["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-eval'" not in policy["script-src"]


@pytest.mark.django_db
def test_the_api_docs_inline_script_runs_by_the_requests_nonce(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    script_src = directives(response)["script-src"]
    nonces = [source for source in script_src if source.startswith("'nonce-")]
    assert len(nonces) == 1 and "'unsafe-inline'" not in script_src
    nonce = nonces[0][len("'nonce-") : -1]
    page = response.content.decode()
    inline = re.findall(r"<script(?![^>]*\ssrc=)([^>]*)>", page)
    assert inline and all(f'nonce="{nonce}"' in attributes for attributes in inline)
    again = client.get("/api/v1/docs/")
    assert again["Content-Security-Policy"] != response["Content-Security-Policy"]  # a fresh nonce each time


def our_templates():
    for path in ROOT.rglob("*.html"):
        parts = set(path.relative_to(ROOT).parts)
        if "templates" in parts and not parts & {".venv", "node_modules", "staticfiles", "test-artifacts"}:
            yield path


def test_no_template_has_an_inline_script_or_event_handler():
    templates = list(our_templates())
    assert len(templates) > 50
    offenders = []
    for path in templates:
        text = path.read_text()
        for match in re.finditer(r"<script\b([^>]*)>", text):
            attributes = match.group(1)
            if "src=" not in attributes and "application/json" not in attributes and "csp_nonce" not in attributes:
                offenders.append(f"{path}: inline <script{attributes}>")
        for match in re.finditer(r"<[a-zA-Z][^>]*\s(on[a-z]+)\s*=", text):
            offenders.append(f"{path}: {match.group(1)}= handler")
        if "javascript:" in text:
            offenders.append(f"{path}: javascript: URL")
    assert not offenders, offenders


def test_check_deploy_is_clean_with_the_compose_settings():
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deployment never does.
    dropped = ("SECURE_", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {key: value for key, value in os.environ.items() if not key.startswith(dropped)}
    env.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
    env.update(
        DEBUG="0",
        SECRET_KEY="k" * 10 + "a-production-secret-key-of-fifty-or-more-characters-9f3b2",
        SECURE_COOKIES="1",
        SECURE_SSL_REDIRECT="1",
        TRUST_X_FORWARDED_PROTO="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
        ALLOWED_HOSTS="hotpath.example.com",
        LOG_FORMAT="json",
        METRICS_TOKEN="a-metrics-token-of-some-length",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
