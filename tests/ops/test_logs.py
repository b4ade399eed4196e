"""Request ids, submission ids and JSON log lines (LOG_FORMAT=json); Sentry off by default."""

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from celery import signals as celery_signals
from django.conf import settings as django_settings

from ops import logs, signals

ROOT = Path(django_settings.BASE_DIR)


@pytest.fixture
def json_lines():
    """Log lines of every logger as LOG_FORMAT=json writes them, in a buffer."""
    config = logs.logging_config("json")
    options = dict(config["formatters"]["json"])
    factory = options.pop("()")
    module, _, name = factory.rpartition(".")
    formatter = getattr(__import__(module, fromlist=[name]), name)(**options)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(logs.ContextFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    level = root.level
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.django_db
def test_each_request_line_carries_its_request_id(client, json_lines):
    response = client.get("/leaderboards/", HTTP_X_REQUEST_ID="proxy-id-1234abcd")
    assert response["X-Request-ID"] == "proxy-id-1234abcd"
    access = [line for line in json_lines() if line["logger"] == "hotpath.access"]
    assert access[-1]["request_id"] == "proxy-id-1234abcd"
    assert access[-1]["level"] == "INFO" and access[-1]["status"] == 200
    assert access[-1]["view"] == "leaderboards:index" and access[-1]["path"] == "/leaderboards/"
    assert {"time", "message", "submission_id", "duration_ms"} <= set(access[-1])


@pytest.mark.django_db
def test_django_s_own_error_lines_carry_the_request_id(client, json_lines):
    client.get("/no-such-page/", HTTP_X_REQUEST_ID="missing-page-5678")
    not_found = [line for line in json_lines() if line["logger"] == "django.request"]
    assert not_found[-1]["request_id"] == "missing-page-5678" and not_found[-1]["level"] == "WARNING"


@pytest.mark.django_db
def test_an_odd_incoming_request_id_is_replaced(client, json_lines):
    for odd in ("short", "has spaces in it", 'quote"injection-attempt', "x" * 300):
        response = client.get("/healthz/live", HTTP_X_REQUEST_ID=odd)
        assert response["X-Request-ID"] != odd and len(response["X-Request-ID"]) == 32
    assert client.get("/healthz/live")["X-Request-ID"] != client.get("/healthz/live")["X-Request-ID"]


def test_a_grading_task_logs_its_submission_id(json_lines):
    class Task:
        name = "grader.grade_submission"

        class request:
            hotpath_request_id = "from-the-web-1234"

    celery_signals.task_prerun.send(sender=Task, task_id="t1", task=Task, args=(42,), kwargs={})
    logging.getLogger("submissions.services.lifecycle").info("grading")
    celery_signals.task_postrun.send(sender=Task, task_id="t1", task=Task, args=(42,), kwargs={})
    logging.getLogger("submissions.services.lifecycle").info("idle")
    grading, idle = json_lines()[-2:]
    assert grading["submission_id"] == 42 and grading["request_id"] == "from-the-web-1234"
    assert idle["submission_id"] is None and idle["request_id"] is None


def test_a_task_published_in_a_request_carries_the_request_id():
    token = logs.request_id_var.set("web-request-5678")
    headers = {}
    signals.on_publish(headers=headers)
    logs.request_id_var.reset(token)
    assert headers == {signals.REQUEST_ID_HEADER: "web-request-5678"}


def run_python(code, **env):
    environment = {**os.environ, **env}
    environment.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
    environment.pop("SENTRY_DSN", None) if "SENTRY_DSN" not in env else None
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_the_switch_turns_every_line_into_json():
    code = "import logging; logging.getLogger('hotpath.test').warning('disk %s', 'low')"
    plain = run_python(code, LOG_FORMAT="plain").stderr.strip().splitlines()[-1]
    assert plain.endswith("WARNING hotpath.test disk low")
    line = json.loads(run_python(code, LOG_FORMAT="json").stderr.strip().splitlines()[-1])
    assert line["message"] == "disk low" and line["level"] == "WARNING" and line["logger"] == "hotpath.test"
    assert line["request_id"] is None and "time" in line


def test_sentry_is_off_unless_a_dsn_is_set():
    code = "import sentry_sdk; print(sentry_sdk.get_client().is_active())"
    assert run_python(code).stdout.strip() == "False"
    # A DSN on a reserved name: the client starts; nothing is sent, since nothing is captured.
    assert run_python(code, SENTRY_DSN="https://public@sentry.invalid/1").stdout.strip() == "True"
