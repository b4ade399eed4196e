"""BwrapSandbox on its own, with plain commands: isolation, limits, cleanup."""

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from grader.errors import PlatformError
from grader.sandbox import bwrap as bwrap_module
from grader.sandbox import cgroups
from grader.sandbox.base import Limits
from grader.sandbox.bwrap import BwrapSandbox, _safe_parts

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")

LIMITS = Limits(
    wall_time_s=20,
    cpu_time_s=20,
    memory_bytes=512 * 1024**2,
    processes=32,
    output_bytes=64 * 1024,
    disk_bytes=8 * 1024**2,
)
REPO = Path(__file__).resolve().parents[2]


def _cgroups_writable():
    group = cgroups.create_run_cgroup(LIMITS)
    if group is None:
        return False
    group.remove()
    return True


CGROUPS_WRITABLE = _cgroups_writable()


def python(code, limits=LIMITS, stdin=b"", use_cgroups=True, files=None):
    with BwrapSandbox(limits, use_cgroups=use_cgroups) as sandbox:
        for name, text in (files or {}).items():
            sandbox.write_file(name, text)
        return sandbox.run(["python3", "-I", "-c", code], stdin=stdin)


def test_runs_python_with_numpy_as_nobody_with_stdin():
    result = python(
        "import os, sys, numpy; print(os.getuid(), os.getgid(), sys.stdin.readline().strip())", stdin=b"key\n"
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [b"65534", b"65534", b"key"]
    assert not (result.timed_out or result.oom_killed or result.output_exceeded)


def test_environment_is_cleared_and_threads_pinned(monkeypatch):
    monkeypatch.setenv("HOTPATH_HOST_SECRET", "do-not-leak")
    result = python("import os, json; print(json.dumps(dict(os.environ)))")
    assert b"do-not-leak" not in result.stdout
    assert b'"OMP_NUM_THREADS": "1"' in result.stdout and b'"HOME": "/tmp"' in result.stdout
    assert b'"OMP_WAIT_POLICY": "PASSIVE"' in result.stdout  # OpenMP threads sleep between calls


def test_no_network_even_to_loopback_redis():
    code = "import socket\ntry:\n    socket.create_connection(('127.0.0.1', 6379), timeout=2)\n    print('CONNECTED')\nexcept OSError as e:\n    print('refused', e)"
    result = python(code)
    assert result.exit_code == 0, result.stderr
    assert b"refused" in result.stdout and b"CONNECTED" not in result.stdout


def test_cannot_read_the_project_or_write_outside_tmp():
    code = (
        "import os\n"
        "print('main', os.path.exists('/work/main/manage.py'))\n"
        "print('settings', os.path.exists('/work/main/interview_platform/settings.py'))\n"
        "for path in ('/job/x', '/usr/x', '/x', '/etc/x'):\n"
        "    try:\n"
        "        open(path, 'w').write('x'); print('WROTE', path)\n"
        "    except OSError: pass\n"
        "open('/tmp/ok', 'w').write('fine'); print('tmp', open('/tmp/ok').read())"
    )
    result = python(code)
    assert result.exit_code == 0, result.stderr
    assert b"main False" in result.stdout and b"settings False" in result.stdout
    assert b"WROTE" not in result.stdout and b"tmp fine" in result.stdout
    assert not Path("/x").exists()


def test_job_files_are_read_only_at_job():
    result = python(
        "print(open('/job/data/input.txt').read()); open('/job/data/input.txt', 'a')", files={"data/input.txt": "hello"}
    )
    assert b"hello" in result.stdout
    assert result.exit_code != 0 and (
        b"Read-only file system" in result.stderr or b"Permission denied" in result.stderr
    )


def test_tmpfs_is_size_capped():
    code = "f = open('/tmp/fill', 'wb')\ntry:\n    f.write(b'x' * (64 * 1024 * 1024)); f.flush(); print('WROTE ALL')\nexcept OSError as e:\n    print('full', e.errno)"
    result = python(code)
    assert b"WROTE ALL" not in result.stdout
    assert b"full" in result.stdout or result.signal is not None  # ENOSPC, or SIGXFSZ from RLIMIT_FSIZE


def test_wall_time_kill():
    limits = Limits(**{**LIMITS.__dict__, "wall_time_s": 2})
    started = time.monotonic()
    result = python("import time\nwhile True: time.sleep(1)", limits=limits)
    assert result.timed_out and result.exit_code is None
    assert time.monotonic() - started < 10


def test_output_cap_kills_and_keeps_only_the_cap():
    result = python("import sys\nwhile True: sys.stdout.write('y' * 4096)")
    assert result.output_exceeded
    assert len(result.stdout) == LIMITS.output_bytes


@pytest.mark.skipif(not CGROUPS_WRITABLE, reason="no writable cgroup hierarchy: the memory limit is RLIMIT_AS instead")
def test_memory_limit_is_detected_as_oom():
    limits = Limits(**{**LIMITS.__dict__, "memory_bytes": 128 * 1024**2})
    result = python(
        "x = bytearray(400 * 1024 * 1024); x[::4096] = b'1' * len(x[::4096]); print('SURVIVED')", limits=limits
    )
    assert b"SURVIVED" not in result.stdout
    assert result.oom_killed
    assert result.peak_memory_bytes and result.peak_memory_bytes <= 130 * 1024**2


SYSTEM_PYTHON = "/usr/bin/python3"
needs_root_and_system_python = pytest.mark.skipif(
    os.geteuid() != 0 or not Path(SYSTEM_PYTHON).exists(), reason="needs root (to drop to nobody) and /usr/bin/python3"
)


@pytest.fixture
def only_usr(monkeypatch):
    """Bind no Python install outside /usr, so nobody can reach every bind source."""
    monkeypatch.setattr(bwrap_module, "python_binds", lambda: [])


def _host_uids_of(marker):
    uids = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes():
                uids.add(int((entry / "status").read_text().split("Uid:")[1].split()[0]))
        except (OSError, IndexError):
            continue
    return uids


@needs_root_and_system_python
def test_bwrap_itself_runs_as_nobody_when_it_can(only_usr):
    results = []
    with BwrapSandbox(LIMITS) as sandbox:
        runner = threading.Thread(
            target=lambda: results.append(
                sandbox.run([SYSTEM_PYTHON, "-c", "import time; time.sleep(3)", "hotpath-uid-probe"])
            )
        )
        runner.start()
        deadline = time.monotonic() + 3
        seen = set()
        while time.monotonic() < deadline and not seen:
            seen = _host_uids_of(b"hotpath-uid-probe")
            time.sleep(0.05)
        runner.join()
    assert results[0].details["host_uid"] == 65534 and results[0].exit_code == 0
    assert seen == {65534}  # the sandboxed process is nobody on the host too, not root


@needs_root_and_system_python
def test_rlimit_fallback_without_cgroups(only_usr):
    limits = Limits(**{**LIMITS.__dict__, "memory_bytes": 128 * 1024**2})
    with BwrapSandbox(limits, use_cgroups=False) as sandbox:
        hog = sandbox.run([SYSTEM_PYTHON, "-I", "-c", "x = bytearray(2 * 1024 * 1024 * 1024); print('SURVIVED')"])
        bomb = sandbox.run([SYSTEM_PYTHON, "-I", "-c", FORK_BOMB])
    assert hog.details["cgroup_version"] is None
    assert b"SURVIVED" not in hog.stdout and b"MemoryError" in hog.stderr
    assert int(bomb.stdout.split()[1]) < 200


def _nobody_can_reach_python():
    with BwrapSandbox(LIMITS) as sandbox:
        return sandbox._run_as() is not None


def test_root_without_cgroups_or_a_readable_python_fails_closed():
    if os.geteuid() != 0 or _nobody_can_reach_python():
        pytest.skip("only when bwrap must run as root")
    with pytest.raises(PlatformError) as caught:
        python("print(1)", use_cgroups=False)
    assert caught.value.error_id == "sandbox.no_process_limit"


FORK_BOMB = (
    "import os, time\n"
    "children = 0\n"
    "for _ in range(200):\n"
    "    try:\n"
    "        if os.fork() == 0:\n"
    "            time.sleep(30); os._exit(0)\n"
    "        children += 1\n"
    "    except OSError:\n"
    "        break\n"
    "print('children', children, flush=True)\n"
    "os._exit(0)"
)


@pytest.mark.skipif(not CGROUPS_WRITABLE, reason="no writable cgroup hierarchy")
def test_fork_bomb_is_capped_by_pids_cgroup():
    result = python(FORK_BOMB)
    children = int(result.stdout.split()[1])
    assert children < LIMITS.processes


def _sandbox_pids():
    """Host pids of processes that run bwrap or live in a pid namespace other than ours."""
    own_ns = os.readlink("/proc/self/ns/pid")
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (
                os.readlink(entry / "ns/pid") != own_ns
                and (entry / "cmdline").read_bytes().find(b"hotpath-leftover") >= 0
            ):
                found.add(int(entry.name))
        except OSError:
            continue
    return found


SPAWN_DAEMONS = (
    "import subprocess, sys, time\n"
    "for _ in range(2):\n"
    "    subprocess.Popen(['python3', '-c', 'import time; time.sleep(300)', 'hotpath-leftover'], start_new_session=True)\n"
    "print('spawned', flush=True)\n"
    "if sys.argv[1:] == ['wait']:\n"
    "    time.sleep(300)\n"
)


def test_no_processes_survive_the_context():
    limits = Limits(**{**LIMITS.__dict__, "wall_time_s": 3})
    with BwrapSandbox(limits) as sandbox:
        result = sandbox.run(["python3", "-c", SPAWN_DAEMONS, "wait"])
        assert result.timed_out and b"spawned" in result.stdout
        job_dir = sandbox.job_dir
    assert not Path(job_dir).exists()
    assert _sandbox_pids() == set()


def test_daemonised_child_does_not_outlive_a_normal_exit():
    with BwrapSandbox(LIMITS) as sandbox:
        result = sandbox.run(["python3", "-c", SPAWN_DAEMONS])
        assert result.exit_code == 0 and b"spawned" in result.stdout
        assert _sandbox_pids() == set()


def test_cleanup_removes_cgroups():
    with BwrapSandbox(LIMITS) as sandbox:
        sandbox.run(["true"])
        directories = [d for group in sandbox._groups for d in getattr(group, "dirs", {}).values()]
    assert all(not directory.exists() for directory in directories)


@pytest.mark.parametrize("bad", ["/etc/passwd", "../escape", "a/../../b", "", "a//b", "./a", "a\0b"])
def test_write_file_rejects_unsafe_paths(bad):
    with pytest.raises(ValueError):
        _safe_parts(bad)


def test_write_file_refuses_to_follow_or_overwrite(tmp_path):
    with BwrapSandbox(LIMITS) as sandbox:
        os.symlink(tmp_path, Path(sandbox.job_dir, "planted"))
        with pytest.raises(OSError):
            sandbox.write_file("planted/evil.txt", "x")
        sandbox.write_file("once.txt", "1")
        with pytest.raises(FileExistsError):
            sandbox.write_file("once.txt", "2")
    assert list(tmp_path.iterdir()) == []


def test_gpu_target_is_a_platform_error():
    with pytest.raises(PlatformError) as caught:
        with BwrapSandbox(LIMITS, target="gpu"):
            pass
    assert caught.value.error_id == "sandbox.target_unsupported"


def test_remove_stale_clears_only_leftovers_of_dead_workers(tmp_path, monkeypatch):
    import subprocess
    import tempfile

    from grader.sandbox import bwrap as bwrap_module

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(bwrap_module, "remove_stale_cgroups", lambda: 0)
    finished = subprocess.Popen(["true"])
    finished.wait()
    stale = tmp_path / f"hotpath-job-{finished.pid}-abc123"
    live = tmp_path / f"hotpath-job-{os.getpid()}-def456"
    unrelated = tmp_path / "hotpath-job-notapid"
    for directory in (stale, live, unrelated):
        (directory / "harness").mkdir(parents=True)
    assert bwrap_module.BwrapSandbox.remove_stale() == 1
    assert not stale.exists()
    assert live.exists() and unrelated.exists()


def test_stale_cgroup_of_a_dead_worker_is_removed(tmp_path):
    import subprocess

    from grader.sandbox.cgroups import remove_stale_cgroups

    finished = subprocess.Popen(["true"])
    finished.wait()
    parent = tmp_path / "memory" / "worker"
    (parent / f"hotpath-{finished.pid}-00ff").mkdir(parents=True)
    (parent / f"hotpath-{os.getpid()}-00aa").mkdir()
    proc_cgroup = tmp_path / "cgroup"
    proc_cgroup.write_text("4:memory:/worker\n")
    assert remove_stale_cgroups(root=tmp_path, proc_cgroup_path=proc_cgroup) == 1
    assert [child.name for child in parent.iterdir()] == [f"hotpath-{os.getpid()}-00aa"]
