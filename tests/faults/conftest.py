"""Real processes for fault tests: a Celery worker subprocess (-P solo -c 1 -Q cpu,check)
against a private redis-server on a spare loopback port (so no other test run
or bench can consume or flush its queue) and the pytest-django test database on
PostgreSQL, which the worker and this process share. Skipped where either is
unavailable (the SQLite run)."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from questions.models import ExerciseVersion, Question
from submissions.models import Submission
from tests.hostile.conftest import tiny_exercise

ROOT = Path(__file__).resolve().parents[2]
#: The shortest visibility timeout settings accept: a killed worker's message comes back after it.
VISIBILITY_TIMEOUT_S = 60


def port_open(host, port):
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


requires_services = pytest.mark.skipif(
    shutil.which("redis-server") is None or shutil.which("bwrap") is None,
    reason="needs redis-server and bubblewrap",
)


@pytest.fixture
def postgres_url(transactional_db):
    """A URL for the test database this process uses, for the worker to share."""
    if connection.vendor != "postgresql":
        pytest.skip("fault tests share the test database with a worker process: run them on PostgreSQL (DATABASE_URL)")
    data = connection.settings_dict
    password = f":{data['PASSWORD']}" if data.get("PASSWORD") else ""
    return f"postgres://{data['USER']}{password}@{data['HOST'] or '127.0.0.1'}:{data['PORT'] or 5432}/{data['NAME']}"


@pytest.fixture
def broker_url():
    port = free_port()
    with private_redis(port):
        yield f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def run_dir():
    directory = tempfile.mkdtemp(prefix="hotpath-faults-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def service_env(database_url, broker, run_dir, **extra):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="interview_platform.settings",
        DATABASE_URL=database_url,
        REDIS_URL=broker,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT_S),
        CELERY_TASK_ALWAYS_EAGER="0",
        SANDBOX_BACKEND="bwrap",
        HOTPATH_RUN_DIR=run_dir,
        DATABASE_CONN_MAX_AGE="0",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


class Worker:
    """One `celery worker -P solo -c 1 -Q cpu,check` subprocess, its log in a file."""

    def __init__(self, env, log_path, name="faults"):
        self.log_path = Path(log_path)
        self.log = open(self.log_path, "ab")
        celery = str(Path(sys.executable).with_name("celery"))
        self.process = subprocess.Popen(
            [
                celery,
                "-A",
                "interview_platform",
                "worker",
                "-P",
                "solo",
                "-c",
                "1",
                "-Q",
                "cpu,check",
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout_s=30):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if b"ready." in self.log_path.read_bytes():
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"the worker did not start:\n{self.log_path.read_text()[-3000:]}")

    def kill(self):
        """SIGKILL the worker process alone, as an OOM killer or a lost node would."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture
def start_worker(tmp_path):
    workers = []

    def start(env, name="faults"):
        worker = Worker(env, tmp_path / f"worker-{len(workers)}.log", name=name).wait_ready()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def manage_shell(env, code, timeout_s=60):
    """Run Python in a fresh Django process with `env` (the real code paths:
    create_submission's on-commit enqueue, the sweep); returns its stdout."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture
def tiny_version(transactional_db):
    return _tiny_version()


@pytest.fixture
def roomy_version(transactional_db):
    """The tiny exercise with a 30 s budget instead of 5 s: for answers that take seconds to
    load on purpose (a worker is killed mid-run), so that a loaded host's slower load never
    turns the fault under test into a time limit (a 150-million-step loop took over 15 s
    beside a full test run on a 2-CPU host)."""
    return _tiny_version(time_s=30)


def _tiny_version(**limits):
    spec, files = tiny_exercise()
    spec = dict(spec, limits={**spec["limits"], **limits})
    question = Question.objects.create(
        slug="faults-tiny",
        title="Faults tiny exercise",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind="coding",
        prompt="Compute it.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=spec,
        reference_code=files["reference.py"],
        starter_code="",
        inputs_code=files["inputs.py"],
        solution_code=files["solution.py"],
        content_hash="faults",
    )


def wait_for(predicate, timeout_s, what):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout_s}s waiting for {what}")


def all_done(ids):
    return lambda: Submission.objects.filter(pk__in=ids).exclude(status="done").count() == 0


class TcpProxy:
    """A loopback TCP forwarder that can be cut (listener closed and every open
    connection dropped) and restored, to make a server briefly unreachable."""

    def __init__(self, target_host, target_port, listen_port):
        self.target = (target_host, target_port)
        self.listen_port = listen_port
        self._listener = None
        self._sockets = set()
        self._lock = threading.Lock()

    def start(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.listen_port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if self._listener is not listener:  # accepted as the cut closed the listener: refused
                client.close()
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)  # the timeout is for connecting: an idle connection stays up
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept (close alone does not)
            except OSError:
                pass
            listener.close()
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass

    def restore(self):
        return self.start()


def proxied_database(postgres_url):
    """A started TcpProxy in front of the test database, and the database URL through it."""
    host_port = postgres_url.rsplit("@", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    proxy = TcpProxy(host, int(port), free_port()).start()
    return proxy, postgres_url.replace(f"@{host_port}/", f"@127.0.0.1:{proxy.listen_port}/")


@contextmanager
def private_redis(port):
    """A throwaway redis-server with no persistence, so a restart loses every message."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    directory = tempfile.mkdtemp(prefix="hotpath-redis-")

    def launch():
        process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                directory,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: port_open("127.0.0.1", port), 10, f"redis-server on port {port}")
        return process

    state = {"process": launch()}

    def restart():
        state["process"].kill()
        state["process"].wait(timeout=10)
        wait_for(lambda: not port_open("127.0.0.1", port), 10, "redis-server to stop")
        state["process"] = launch()

    try:
        yield restart
    finally:
        state["process"].kill()
        state["process"].wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)
