"""End to end through Celery: a real worker process on queue cpu, Redis as the
broker, and a database shared by three processes like in production: a "web"
process that submits (manage.py shell), the worker that grades, and the poller.

The database is a file (SQLite under the default settings) or, when the suite
runs with DATABASE_URL=postgres://..., a database of this test's own on that
server, so it works under both CI configurations."""

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from .conftest import BUSY_PROOF_SIZES, TINY_FILES, TINY_SPEC, needs_harness

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("HOTPATH_TEST_REDIS_URL", "redis://127.0.0.1:6379/3")
CELERY = Path(sys.executable).parent / "celery"
WAIT_S = 120
E2E_SPEC = {**TINY_SPEC, "sizes": BUSY_PROOF_SIZES}  # it asserts speedup > 1 (conftest says why)


def _redis_reachable():
    import redis

    try:
        return redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return False


pytestmark = [
    pytest.mark.slow,
    needs_harness,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
    pytest.mark.skipif(not _redis_reachable(), reason=f"no Redis at {REDIS_URL} (set HOTPATH_TEST_REDIS_URL)"),
]


@pytest.fixture
def shared_database_url(tmp_path):
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path / 'e2e.sqlite3'}"
        return
    import psycopg

    parts = urlsplit(base)
    name = f"{parts.path.lstrip('/') or 'hotpath'}_grader_e2e"
    admin_url = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def environment(shared_database_url, tmp_path):
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()  # this suite's own Redis db: no stale tasks
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url,
        "REDIS_URL": REDIS_URL,
        "HOTPATH_RUN_DIR": str(tmp_path / "run"),
        "DJANGO_SETTINGS_MODULE": "interview_platform.settings",
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    manage(env, "migrate", "--noinput")
    return env


@pytest.fixture
def worker(environment, tmp_path):
    log = open(tmp_path / "worker.log", "wb")
    process = subprocess.Popen(
        [
            str(CELERY),
            "-A",
            "interview_platform",
            "worker",
            "-Q",
            "cpu",
            "-c",
            "1",
            "-P",
            "solo",
            "--loglevel",
            "INFO",
            "-n",
            f"e2e-{uuid.uuid4().hex[:8]}@%h",
        ],
        cwd=REPO,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    yield process
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    log.close()


def manage(env, *args, timeout=WAIT_S + 30):
    completed = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


SUBMIT = """
import json
from django.contrib.auth import get_user_model
from submissions.services import intake, queueing
from questions.models import ExerciseVersion, Question
spec, files, code, duplicate = json.loads({payload!r})
question = Question.objects.create(slug="tiny-scale", title="Scale", topic="t", difficulty="easy", kind="coding", prompt="p")
version = ExerciseVersion.objects.create(question=question, number=1, spec=spec, reference_code=files["reference.py"],
    starter_code=files["starter.py"], inputs_code=files["inputs.py"], solution_code=files["solution.py"], content_hash="e2e")
user = get_user_model().objects.create_user("e2e", password="x")
submission = intake.create_submission(user, version, code)
if duplicate:
    queueing.enqueue(submission)  # the same task delivered twice
print(submission.pk)
"""

WAIT_DONE = """
import json, time
from submissions.models import Submission
deadline = time.monotonic() + {wait_s}
while True:
    row = Submission.objects.get(pk={pk})
    if row.status == "done" or time.monotonic() > deadline:
        break
    time.sleep(0.5)
print(json.dumps({{"status": row.status, "verdict": row.verdict, "attempts": row.attempts, "speedup": row.speedup,
                  "hardware": row.hardware, "report": row.report}}))
"""


def submit_and_wait(env, code, duplicate=False):
    payload = json.dumps([E2E_SPEC, TINY_FILES, code, duplicate])
    pk = int(manage(env, "shell", "-c", SUBMIT.format(payload=payload)).strip().splitlines()[-1])
    return json.loads(manage(env, "shell", "-c", WAIT_DONE.format(pk=pk, wait_s=WAIT_S)).strip().splitlines()[-1])


def test_submission_is_graded_by_a_real_worker_once(environment, worker, tmp_path):
    row = submit_and_wait(environment, TINY_FILES["solution.py"], duplicate=True)
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert row["status"] == "done", f"not graded in {WAIT_S}s; worker log:\n{log[-3000:]}"
    assert row["verdict"] == "accepted" and row["speedup"] > 1 and row["hardware"] == "cpu", row["report"]
    assert row["attempts"] == 1  # the duplicate delivery found the row taken and did nothing
    assert row["report"]["sizes"]
