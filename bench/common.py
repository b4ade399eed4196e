"""What the benchmark scripts share: the repository root, Django set-up, a
PostgreSQL database of their own, and Celery worker processes started, waited
for and stopped."""

import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
WORKER_READY_TIMEOUT_S = 90
POLL_S = 0.05


def setup_django(environment):
    """Start Django in this process with `environment` added to os.environ (the
    workers a bench starts inherit it)."""
    os.environ.update(environment)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def create_database(database_url, *, fresh=False):
    """Create the bench's PostgreSQL database if it is missing; `fresh` drops it first."""
    import psycopg

    url = urlsplit(database_url)
    name = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as connection:
        if fresh:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        elif connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        connection.execute(f'CREATE DATABASE "{name}"')


class Worker:
    """A Celery worker subprocess on queues cpu and check, as a CPU grading worker
    takes them (solo pool, one task at a time), its
    output in log_dir/<name>.log. `launcher` is the command that takes Celery's
    arguments; by default the celery CLI on the project's app."""

    def __init__(self, name, environment, log_dir, *, loglevel="INFO", launcher=None):
        self.name = name
        self.environment = environment
        self.log_path = Path(log_dir) / f"{name}.log"
        self.loglevel = loglevel
        self.launcher = launcher or [str(Path(sys.executable).parent / "celery"), "-A", "interview_platform"]
        self.process = None

    def command(self):
        return [
            *self.launcher,
            "worker",
            "-Q",
            "cpu,check",
            "-c",
            "1",
            "-P",
            "solo",
            "-n",
            f"{self.name}@%h",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            self.loglevel,
        ]

    def start(self):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            self.command(), cwd=ROOT, env=self.environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()

    def terminate(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # warm shutdown: finishes the task in hand

    def wait_stopped(self, timeout_s=60):
        if self.process is None:
            return
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self):
        self.terminate()
        self.wait_stopped()

    def log_tail(self, lines=30):
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def start_workers(workers):
    for worker in workers:
        worker.start()
    return workers


def stop_workers(workers, timeout_s=60):
    """Warm shutdown of every worker at once, then wait for each."""
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.wait_stopped(timeout_s)


def wait_until_ready(workers, timeout_s=WORKER_READY_TIMEOUT_S):
    """Until every worker answers a ping; exits with the logs when one dies or time runs out."""
    from interview_platform.celery import app

    wanted = {f"{worker.name}@{platform.node()}" for worker in workers}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for worker in workers:
            if worker.process.poll() is not None:
                raise SystemExit(f"worker {worker.name} exited with {worker.process.returncode}:\n{worker.log_tail()}")
        replies = app.control.ping(timeout=0.5) or []
        answered = {name for reply in replies for name in reply}
        if wanted <= answered:
            return
        time.sleep(0.2)
    raise SystemExit(
        "workers did not answer a ping within %ss:\n%s" % (timeout_s, "\n".join(w.log_tail() for w in workers))
    )


def wait_done(ids, timeout_s, poll_s=POLL_S):
    """Poll the Submission rows until every one is done; returns {id: wall time first seen done}."""
    from submissions.models import Submission
    from submissions.states import Status

    pending, seen = set(ids), {}
    deadline = time.monotonic() + timeout_s
    while pending and time.monotonic() < deadline:
        for pk in Submission.objects.filter(pk__in=pending, status=Status.DONE).values_list("pk", flat=True):
            seen[pk] = time.time()
            pending.discard(pk)
        if pending:
            time.sleep(poll_s)
    return seen
