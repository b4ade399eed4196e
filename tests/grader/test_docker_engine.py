"""The Docker backend against the real engine and the real CPU sandbox image
(`make images`): isolation, limits, clean-up, the leftovers of a killed worker,
and a whole grading. Skipped loudly where no engine can start (tests/sandbox_backends.py)."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from grader.config import JudgeConfig
from grader.grading import grade
from grader.sandbox.base import Limits
from grader.sandbox.docker import EXPIRES_LABEL, LABEL, DockerSandbox
from grader.verdicts import Verdict
from tests.sandbox_backends import require_docker

from .conftest import ENDLESS, WRONG_ANSWER, needs_harness

pytestmark = pytest.mark.docker

LIMITS = Limits(
    wall_time_s=20,
    cpu_time_s=20,
    memory_bytes=256 * 1024**2,
    processes=32,
    output_bytes=64 * 1024,
    disk_bytes=8 * 1024**2,
)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def engine():
    require_docker()
    client = docker.from_env(timeout=60)
    yield client
    client.close()


@pytest.fixture
def created(monkeypatch):
    """The ids of the containers this test's sandboxes create; afterwards none may be left."""
    ids = []
    original = DockerSandbox._create

    def recording(self, spec, command):
        container = original(self, spec, command)
        ids.append(container.id)
        return container

    monkeypatch.setattr(DockerSandbox, "_create", recording)
    yield ids
    client = docker.from_env()
    left = [cid for cid in ids if client.containers.list(all=True, filters={"id": cid})]
    client.close()
    assert not left, f"sandbox containers left behind: {left}"


def python(code, limits=LIMITS, stdin=b""):
    with DockerSandbox(limits) as sandbox:
        return sandbox.run(["python3", "-I", "-c", code], stdin=stdin)


def test_runs_numpy_as_nobody_as_pid_1_with_stdin(engine, created):
    code = "import os, sys, numpy; print(os.getuid(), os.getgid(), os.getpid(), sys.stdin.readline().strip())"
    result = python(code, stdin=b"per-run-key\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [b"65534", b"65534", b"1", b"per-run-key"]
    assert not (result.timed_out or result.oom_killed or result.output_exceeded)
    assert created and result.details["container_id"] == created[0]


def test_no_network_no_writable_root_and_a_read_only_job(engine, created):
    code = (
        "import os, socket\n"
        "found = []\n"
        "try:\n"
        "    socket.create_connection(('1.1.1.1', 53), timeout=3); found.append('network')\n"
        "except OSError:\n"
        "    pass\n"
        "for path in ('/escape', '/job/escape', '/usr/escape'):\n"
        "    try:\n"
        "        open(path, 'w'); found.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "open('/tmp/scratch', 'w').write('ok')\n"
        "print(sorted(os.listdir('/job')), oct(os.stat('/job/data.txt').st_mode & 0o777), os.stat('/job/data.txt').st_uid, found)\n"
    )
    with DockerSandbox(LIMITS) as sandbox:
        sandbox.write_file("data.txt", "job data")
        result = sandbox.run(["python3", "-I", "-c", code])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.decode().strip() == "['data.txt'] 0o444 0 []"


def test_tmp_is_size_capped_and_not_executable(engine, created):
    code = (
        "import os, subprocess\n"
        "written = 0\n"
        "try:\n"
        "    with open('/tmp/fill', 'wb') as f:\n"
        "        for _ in range(64):\n"
        "            f.write(b'x' * 1024**2); f.flush(); written += 1024**2\n"
        "except OSError:\n"
        "    pass\n"
        "os.remove('/tmp/fill')\n"
        "open('/tmp/run.sh', 'w').write('#!/bin/sh\\necho ran\\n'); os.chmod('/tmp/run.sh', 0o755)\n"
        "try:\n"
        "    subprocess.run(['/tmp/run.sh']); print('EXECUTED')\n"
        "except PermissionError:\n"
        "    print('noexec')\n"
        "print(written)\n"
    )
    result = python(code)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.decode().split()
    assert lines[0] == "noexec"
    assert int(lines[1]) <= LIMITS.disk_bytes


def test_wall_time_kill(engine, created):
    limits = Limits(**{**LIMITS.__dict__, "wall_time_s": 3})
    started = time.monotonic()
    result = python("import time; time.sleep(60)", limits=limits)
    assert result.timed_out and result.signal == signal.SIGKILL
    assert time.monotonic() - started < 20


def test_cpu_time_limit_stops_a_child_and_pid_1_reports_it(engine, created):
    """RLIMIT_CPU sends SIGXCPU to the process that spins (the harness's runners are
    children of pid 1, as here). Pid 1 itself would ignore SIGXCPU, having no handler
    for it, and be killed at the hard limit a second later."""
    limits = Limits(**{**LIMITS.__dict__, "cpu_time_s": 2, "wall_time_s": 30})
    code = "import subprocess, sys; print(subprocess.run([sys.executable, '-c', 'while True: pass']).returncode)"
    result = python(code, limits=limits)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [str(-signal.SIGXCPU).encode()]


def test_output_cap_kills_and_keeps_only_the_cap(engine, created):
    result = python("import sys\nwhile True: sys.stdout.write('x' * 65536)")
    assert result.output_exceeded
    assert len(result.stdout) <= LIMITS.output_bytes


def test_memory_limit_is_detected_as_oom(engine, created):
    result = python("hog = []\nwhile True: hog.append(bytearray(16 * 1024**2))")
    assert result.oom_killed and result.exit_code != 0


def test_fork_bomb_is_capped_by_the_pids_limit(engine, created):
    code = (
        "import os\n"
        "children = 0\n"
        "try:\n"
        "    for _ in range(200):\n"
        "        if os.fork() == 0:\n"
        "            import time; time.sleep(30); os._exit(0)\n"
        "        children += 1\n"
        "except OSError:\n"
        "    pass\n"
        "print(children)\n"
    )
    result = python(code, limits=Limits(**{**LIMITS.__dict__, "wall_time_s": 8}))
    assert int(result.stdout.split()[0]) < LIMITS.processes


def test_a_daemon_dies_with_the_run(engine, created):
    """A double-forked child that ignores SIGTERM goes when pid 1 exits: the container is gone."""
    code = (
        "import os, signal, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)\n"
        "    os._exit(0)\n"
        "print('parent done')\n"
    )
    result = python(code)
    assert result.exit_code == 0 and not result.timed_out


WORKER = """
import sys, time
from grader.config import JudgeConfig
from grader.sandbox.base import Limits
from grader.sandbox.docker import DockerSandbox
config = JudgeConfig(backend="docker", cpu_image=sys.argv[1])
limits = Limits(wall_time_s=600, cpu_time_s=600, memory_bytes=128 * 1024**2, processes=8, output_bytes=4096, disk_bytes=4 * 1024**2)
with DockerSandbox(limits, config=config) as sandbox:
    sandbox.run(["python3", "-c", "import time; print('running', flush=True); time.sleep(600)"])
"""


def test_leftover_of_a_killed_worker_is_swept_once_expired(engine):
    """A worker SIGKILLed mid-run never removes its container. The sweep every worker
    runs at start (submissions.tasks.remove_stale_sandboxes) leaves it while a live run could
    still own it, and removes it, with its /job volume, once its expiry label has passed."""
    before = {c.id for c in engine.containers.list(all=True, filters={"label": LABEL})}
    worker = subprocess.Popen([sys.executable, "-c", WORKER, JudgeConfig().cpu_image], cwd=REPO)
    try:
        leftover = None
        for _ in range(120):
            running = [c for c in engine.containers.list(filters={"label": LABEL}) if c.id not in before]
            if running:
                leftover = running[0]
                break
            time.sleep(0.5)
        assert leftover is not None, "the worker never started its sandbox container"
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(30)
    volumes = [m["Name"] for m in leftover.attrs["Mounts"] if m["Type"] == "volume"]
    leftover.reload()
    assert leftover.status == "running", "the killed worker's container should outlive it"
    try:
        expires = float(leftover.labels[EXPIRES_LABEL])
        DockerSandbox.remove_stale(client=engine)
        assert engine.containers.list(filters={"id": leftover.id}), "swept while its run could still be live"
        assert DockerSandbox.remove_stale(client=engine, now=expires + 1) >= 1
        assert not engine.containers.list(all=True, filters={"id": leftover.id})
        assert not [v for v in volumes if engine.volumes.list(filters={"name": v})], "its /job volume was left behind"
    finally:
        try:
            engine.containers.get(leftover.id).remove(force=True, v=True)
        except docker.errors.NotFound:
            pass


@needs_harness
def test_grading_on_docker_accepts_the_model_solution_and_catches_a_wrong_answer(engine, created, tiny_exercise):
    report = grade(tiny_exercise, tiny_exercise.files["solution.py"], backend="docker")
    assert report["verdict"] == Verdict.ACCEPTED, report.get("message")
    assert report["speedup"] is not None and report["speedup_ci"] is not None
    assert grade(tiny_exercise, WRONG_ANSWER, mode="check", backend="docker")["verdict"] == Verdict.WRONG_ANSWER


@needs_harness
def test_endless_submission_is_a_time_limit_on_docker(engine, created, tiny_exercise):
    tiny_exercise.spec["limits"] = {**tiny_exercise.spec["limits"], "time_s": 6}
    report = grade(tiny_exercise, ENDLESS, mode="check", backend="docker")
    assert report["verdict"] == Verdict.TIME_LIMIT, report.get("message")
