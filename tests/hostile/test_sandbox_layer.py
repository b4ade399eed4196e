"""The bubblewrap layer on its own: each escape probe runs as the sandbox's main
program (no harness in between, no import allow-list to hide behind) and must
find nothing; resource attacks must be stopped by the sandbox's own limits,
with cgroups and in the rlimit fallback."""

import json

import pytest

from grader.errors import PlatformError
from grader.sandbox.base import Limits
from grader.sandbox.bwrap import BwrapSandbox
from grader.sandbox.docker import DockerSandbox

from .conftest import ESCAPED, attack_code, sandbox_processes

#: Tests that take `sandbox_backend` run on bubblewrap and on Docker, each skipped where it is missing.

LIMITS = Limits(
    wall_time_s=6,
    cpu_time_s=6,
    memory_bytes=384 * 1024**2,
    processes=32,
    output_bytes=64 * 1024,
    disk_bytes=16 * 1024**2,
)
#: Runs the attack module and prints what its probe found.
RUN_PROBE = "import json, runpy; ns = runpy.run_path('/job/attack.py'); print(json.dumps(ns.get('_FINDINGS')))"

ESCAPE_PROBES = [
    "escape_network_loopback",
    "escape_network_any",
    "escape_read_host_files",
    "escape_environment_secrets",
    "escape_proc_host_processes",
    "escape_write_job_dir",
    "escape_symlinks_planted",
    "escape_read_process_memory",
    "escape_inherited_fds",
    "sandbox_root_writable",
]


def open_sandbox(backend, limits=LIMITS, use_cgroups=True):
    if backend == "docker":
        if not use_cgroups:
            pytest.skip("the engine always applies its cgroup limits; the rlimit fallback is bubblewrap's")
        return DockerSandbox(limits)
    return BwrapSandbox(limits, use_cgroups=use_cgroups)


def run_in_sandbox(name, command, limits=LIMITS, use_cgroups=True, stdin=b"", backend="bwrap"):
    """The SandboxResult, or None when the sandbox refused to run without a
    process limit (root without cgroups: the only safe answer there)."""
    with open_sandbox(backend, limits, use_cgroups) as sandbox:
        sandbox.write_file("attack.py", attack_code(name))
        try:
            return sandbox.run(command, stdin=stdin)
        except PlatformError as exc:
            if use_cgroups or exc.error_id != "sandbox.no_process_limit":
                raise
            return None


@pytest.mark.parametrize("name", ESCAPE_PROBES)
def test_escape_probe_finds_nothing(name, sandbox_backend, host_guard):
    result = run_in_sandbox(name, ["python3", "-I", "-c", RUN_PROBE], backend=sandbox_backend)
    output = (result.stdout + result.stderr).decode("utf-8", "replace")
    host_guard.assert_not_in(output, f"{name}'s output")
    assert result.exit_code == 0, output[-2000:]
    findings = json.loads(result.stdout.decode().strip().splitlines()[-1])
    assert findings == [], f"{ESCAPED}: {findings}"


def test_stdin_key_is_readable_only_by_the_first_reader(sandbox_backend, host_guard):
    """The harness reads the key first; whatever it starts afterwards must not
    inherit it. Here the probe itself is the first reader, so it sees it: this
    proves the probe works and that the key travels only on stdin."""
    result = run_in_sandbox(
        "escape_inherited_fds", ["python3", "-I", "-c", RUN_PROBE], stdin=b"per-run-key\n", backend=sandbox_backend
    )
    assert b"per-run-key" in result.stdout


@pytest.mark.parametrize("use_cgroups", [True, False], ids=["cgroups", "rlimits"])
def test_fork_bomb_is_contained(use_cgroups, sandbox_backend, host_guard):
    result = run_in_sandbox(
        "exhaust_fork_bomb", ["python3", "-I", "/job/attack.py"], use_cgroups=use_cgroups, backend=sandbox_backend
    )
    if result is None:
        return  # refused to run unconfined: nothing could fork
    assert result.exit_code != 0 or result.timed_out
    assert result.wall_s < LIMITS.wall_time_s + 6


@pytest.mark.parametrize("use_cgroups", [True, False], ids=["cgroups", "rlimits"])
def test_memory_bomb_is_contained(use_cgroups, sandbox_backend, host_guard):
    script = "import runpy; runpy.run_path('/job/attack.py')['transform'](None)"
    result = run_in_sandbox(
        "exhaust_memory_bomb", ["python3", "-I", "-c", script], use_cgroups=use_cgroups, backend=sandbox_backend
    )
    if result is None:
        return
    assert result.exit_code != 0
    if use_cgroups:
        assert result.oom_killed
        if sandbox_backend == "bwrap":  # the engine keeps no peak after exit; the harness measures its own
            assert result.peak_memory_bytes <= LIMITS.memory_bytes


@pytest.mark.parametrize("use_cgroups", [True, False], ids=["cgroups", "rlimits"])
def test_sandbox_root_is_not_an_uncapped_disk(use_cgroups, sandbox_backend, host_guard):
    """Files written outside /tmp land in bubblewrap's private root tmpfs. With a
    memory cgroup they are charged as memory; without one, only a read-only
    root keeps them from growing past the disk cap into host RAM."""
    script = "import runpy; print(runpy.run_path('/job/attack.py')['_written'])"
    result = run_in_sandbox(
        "exhaust_fill_sandbox_root", ["python3", "-I", "-c", script], use_cgroups=use_cgroups, backend=sandbox_backend
    )
    if result is None:
        return
    if result.exit_code == 0:
        written = int(result.stdout.decode().split()[-1])
        assert written <= LIMITS.disk_bytes, (
            f"wrote {written >> 20} MiB outside /tmp, past the {LIMITS.disk_bytes >> 20} MiB cap"
        )
    else:
        assert result.oom_killed or result.signal is not None


def test_tmp_is_capped(sandbox_backend, host_guard):
    script = "import runpy; print(runpy.run_path('/job/attack.py')['_written'])"
    result = run_in_sandbox("exhaust_disk_fill", ["python3", "-I", "-c", script], backend=sandbox_backend)
    assert result.exit_code == 0, result.stderr[-1000:]
    assert int(result.stdout.split()[-1]) <= LIMITS.disk_bytes


def test_daemon_does_not_outlive_the_run(sandbox_backend, host_guard):
    """The double-forked, SIGTERM-ignoring daemon is gone as soon as run() returns
    (host_guard checks no sandbox process or container is left)."""
    with open_sandbox(sandbox_backend) as sandbox:
        sandbox.write_file("attack.py", attack_code("exhaust_daemon_survivor"))
        result = sandbox.run(["python3", "-I", "/job/attack.py"])
        assert result.exit_code == 0
        assert not sandbox_processes(), "the daemon outlived run()"


#: Prints the sandbox command's pid, its seccomp mode and what ptrace(PTRACE_TRACEME) answers.
SECCOMP_PROBE = (
    "import ctypes, json, os; libc = ctypes.CDLL(None, use_errno=True); "
    "mode = [l.split()[1] for l in open('/proc/self/status') if l.startswith('Seccomp:')][0]; "
    "traced = libc.ptrace(0, 0, None, None); "
    "print(json.dumps([os.getpid(), mode, traced, ctypes.get_errno()]))"
)


def test_the_command_is_the_sandboxs_init_under_the_seccomp_filter(sandbox_backend):
    """bwrap --as-pid-1 and --seccomp (issue 12): the harness supervisor is the pid
    namespace's init, and every process runs under the filter (mode 2), which
    refuses ptrace with EPERM."""
    with open_sandbox(sandbox_backend) as sandbox:
        result = sandbox.run(["python3", "-I", "-c", SECCOMP_PROBE])
    assert result.exit_code == 0, result.stderr.decode()[-2000:]
    pid, mode, traced, error = json.loads(result.stdout.decode().strip().splitlines()[-1])
    assert (pid, mode, traced, error) == (1, "2", -1, 1)
