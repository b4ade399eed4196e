"""The system-call policy (grader/harness/syscalls.py), loaded for real in a
forked child: every denied call answers EPERM, and the runner's own rules let a
process signal and limit itself but nothing else."""

import ctypes
import errno
import os
import signal
import subprocess
import sys
import threading

import pytest

from grader.harness import syscalls

LIBC = ctypes.CDLL(None, use_errno=True)
PTRACE_ATTACH = 16
SECCOMP = pytest.importorskip("pyseccomp")


def in_child(body):
    """Runs body() in a forked child; returns what it returned (a short list of strings)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            result = body()
        except BaseException as exc:  # shown in the failing assertion
            result = [f"child raised {exc!r}"]
        try:
            os.write(write_end, ("\n".join(result)).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        output = pipe.read()
    os.waitpid(pid, 0)
    return output.split("\n") if output else []


def raw_errno(name, *args):
    """The errno of syscall `name` made with `args` (zeros by default), or 'ok'."""
    number = SECCOMP.resolve_syscall(SECCOMP.system_arch(), name)
    args = args or (0, 0, 0, 0, 0, 0)
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(number), *(ctypes.c_long(arg) for arg in args))
    return "ok" if result >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


#: Denied calls with arguments that, unfiltered, do something harmless or fail
#: with another errno; each must answer EPERM once the filter is loaded.
PROBES = {
    "ptrace": (PTRACE_ATTACH, 0, 0, 0, 0, 0),  # pid 0 does not exist: ESRCH unfiltered
    "process_vm_readv": None,  # (own pid, nothing to copy): 0 unfiltered
    "process_vm_writev": None,
    "perf_event_open": (0, 0, -1, -1, 0, 0),  # NULL attributes: EFAULT unfiltered
    "kcmp": None,
}


def probe_args(name):
    if name in ("process_vm_readv", "process_vm_writev"):
        return (os.getpid(), 0, 0, 0, 0, 0)
    if name == "kcmp":
        return (os.getpid(), os.getpid(), 0, 0, 0, 0)
    return PROBES.get(name) or (-1, 0, 0, 0, 0, 0)


def test_the_policy_denies_what_the_issue_names_and_explains_every_entry():
    for name in ("ptrace", "process_vm_readv", "process_vm_writev", "perf_event_open"):
        assert name in syscalls.SANDBOX_DENIED
    for table in (
        syscalls.SANDBOX_DENIED,
        syscalls.RUNNER_DENIED,
        syscalls.RUNNER_SELF_ONLY,
        syscalls.RUNNER_ZERO_ONLY,
    ):
        assert all(isinstance(reason, str) and reason for reason in table.values())


@pytest.mark.parametrize("name", sorted(PROBES))
def test_without_the_filter_the_probe_is_not_refused_with_eperm(name):
    """The control: the EPERM below is the filter's doing, not the kernel's."""
    assert in_child(lambda: [raw_errno(name, *probe_args(name))]) != ["EPERM"]


@pytest.mark.parametrize("name", sorted(syscalls.SANDBOX_DENIED))
def test_the_sandbox_filter_denies_each_listed_call(name):
    if SECCOMP.resolve_syscall(SECCOMP.system_arch(), name) < 0:
        pytest.skip(f"{name} does not exist on this architecture")

    def body():
        syscalls.sandbox_filter().load()
        return [raw_errno(name, *probe_args(name))]

    assert in_child(body) == ["EPERM"]


def test_the_sandbox_filter_refuses_new_namespaces_but_not_new_processes_or_threads():
    def body():
        syscalls.sandbox_filter().load()
        started = threading.Thread(target=lambda: None)
        started.start()
        started.join()
        return [
            raw_errno("unshare", syscalls.NAMESPACE_CLONE_FLAGS["CLONE_NEWUSER"]),
            raw_errno("clone", syscalls.NAMESPACE_CLONE_FLAGS["CLONE_NEWPID"] | signal.SIGCHLD),
            raw_errno("clone3"),
            str(subprocess.run([sys.executable, "-c", "pass"]).returncode),
        ]

    assert in_child(body) == ["EPERM", "EPERM", "ENOSYS", "0"]


def test_the_runner_filter_lets_a_process_act_on_itself_only():
    parent = os.getpid()

    def body():
        syscalls.confine_runner()
        me = os.getpid()
        outcomes = []
        for attempt in (
            lambda: os.kill(parent, 0),
            lambda: os.kill(0, 0),  # the process group: the supervisor is in it
            lambda: os.kill(-os.getpgrp(), 0),
            lambda: os.kill(me, 0),
            lambda: signal.pthread_kill(threading.get_ident(), 0),
            lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),
            lambda: os.setpriority(os.PRIO_PROCESS, 0, 1),
        ):
            try:
                attempt()
                outcomes.append("ok")
            except OSError as exc:
                outcomes.append(errno.errorcode[exc.errno])
        # prlimit64(pid, RLIMIT_CORE, new=NULL, old=NULL): only a read, allowed for "this process" (0) alone.
        return outcomes + [raw_errno("prlimit64", parent, 4, 0, 0), raw_errno("prlimit64", 0, 4, 0, 0)]

    assert in_child(body) == ["EPERM", "EPERM", "EPERM", "ok", "ok", "EPERM", "EPERM", "EPERM", "ok"]


def test_no_route_lets_the_kernel_send_a_signal_the_code_chose_to_a_process_it_named():
    """Issue 29: F_SETOWN + F_SETSIG + O_ASYNC on a pipe made the kernel send SIGSTOP
    (and SIGSEGV) to the reference, past the kill/tgkill rules; a POSIX timer sent a
    paused helper SIGCONT. Unfiltered, each of these calls succeeds (the control)."""
    import fcntl

    def attempts():
        read_end, write_end = os.pipe()
        outcomes = []
        for attempt in (
            lambda: fcntl.fcntl(read_end, fcntl.F_SETOWN, os.getppid()),
            lambda: fcntl.fcntl(read_end, 10, signal.SIGSTOP),  # F_SETSIG
            lambda: fcntl.fcntl(read_end, fcntl.F_GETFL),  # an ordinary fcntl stays allowed
        ):
            try:
                attempt()
                outcomes.append("ok")
            except OSError as exc:
                outcomes.append(errno.errorcode[exc.errno])
        # timer_create(CLOCK_MONOTONIC, NULL (SIGALRM to this process), &id); PR_SET_PDEATHSIG.
        timer_id = ctypes.c_long(0)
        ctypes.set_errno(0)
        created = LIBC.timer_create(1, None, ctypes.byref(timer_id))
        outcomes.append("ok" if created == 0 else errno.errorcode[ctypes.get_errno()])
        outcomes.append(raw_errno("prctl", 1, signal.SIGCONT, 0, 0, 0))
        return outcomes

    assert in_child(attempts) == ["ok", "ok", "ok", "ok", "ok"]

    def confined():
        syscalls.confine_runner()
        return attempts()

    assert in_child(confined) == ["EPERM", "EPERM", "ok", "EPERM", "EPERM"]
    # The kernel reads the command as a 32-bit int: the upper half does not hide it.
    assert in_child(
        lambda: (
            syscalls.confine_runner(),
            [raw_errno("fcntl", 0, 8 | 1 << 32, os.getpid()), raw_errno("prctl", 1 | 1 << 32, signal.SIGCONT)],
        )[1]
    ) == ["EPERM", "EPERM"]
    assert in_child(lambda: (syscalls.sandbox_filter().load(), attempts())[1])[:3] == ["EPERM", "EPERM", "ok"]
