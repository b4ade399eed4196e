"""Which system calls the sandbox denies: one readable policy, enforced by the kernel.

Two filters are built from it (seccomp, through libseccomp):

- the SANDBOX filter, on everything in the sandbox, installed by the backend
  before the harness starts (bubblewrap's --seccomp, Docker's seccomp profile:
  grader/sandbox/seccomp.py builds both from SANDBOX_DENIED);
- the RUNNER filter, which each runner installs on itself after the harness's
  own imports and before the module under test is loaded. It holds the sandbox
  list again (so a runner is confined even where the harness runs without a
  sandbox, as in the tests) and the calls that only the code under test must
  not make: signalling, re-prioritising or re-pinning any process but itself.
  A filter cannot be removed once installed, and every thread and child of
  the runner inherits it.

Every denied call fails with EPERM ("Operation not permitted"), which Python
raises as PermissionError: the learner sees an ordinary error in their own code.
"""

import errno
import os

# pyseccomp ships no type information (no py.typed), so its names are Any to mypy; the
# annotations below still name its classes (SyscallFilter, Arg) for the reader.
import pyseccomp as seccomp

#: Denied to every process in the sandbox, the trusted supervisor included: nothing
#: the harness does needs them, and each is a way to reach another process, the
#: kernel or the host.
SANDBOX_DENIED = {
    # Controlling or reading another process: the way to make the sandbox's pid 1
    # (or the reference) run code, or to read its memory.
    "ptrace": "attach to another process and run code in it",
    "process_vm_readv": "read another process's memory",
    "process_vm_writev": "write another process's memory",
    "process_madvise": "act on another process's memory",
    "kcmp": "compare another process's kernel resources",
    "pidfd_getfd": "take a file descriptor out of another process",
    # Measuring or steering the machine beyond one's own process.
    "perf_event_open": "hardware counters and kernel tracing",
    "bpf": "load programs into the kernel",
    "userfaultfd": "stall the kernel on page faults (a classic exploit primitive)",
    "io_uring_setup": "an asynchronous interface that runs operations seccomp does not see",
    "io_uring_enter": "see io_uring_setup",
    "io_uring_register": "see io_uring_setup",
    # Namespaces, mounts and kernel state: bubblewrap set these up already.
    "unshare": "new namespaces",
    "setns": "enter another namespace",
    "mount": "mounts",
    "umount2": "mounts",
    "pivot_root": "mounts",
    "move_mount": "mounts",
    "open_tree": "mounts",
    "fsopen": "mounts",
    "fsconfig": "mounts",
    "fsmount": "mounts",
    "fspick": "mounts",
    "mount_setattr": "mounts",
    "keyctl": "the kernel keyring",
    "add_key": "the kernel keyring",
    "request_key": "the kernel keyring",
    "open_by_handle_at": "open files by handle, bypassing paths",
    "name_to_handle_at": "see open_by_handle_at",
    "init_module": "kernel modules",
    "finit_module": "kernel modules",
    "delete_module": "kernel modules",
    "kexec_load": "replace the kernel",
    "kexec_file_load": "replace the kernel",
    "reboot": "the machine",
    "swapon": "the machine",
    "swapoff": "the machine",
    "acct": "process accounting",
    "quotactl": "disk quotas",
    "syslog": "the kernel log",
    "settimeofday": "the system clock",
    "clock_settime": "the system clock",
    "clock_adjtime": "the system clock",
    "adjtimex": "the system clock",
    "iopl": "hardware I/O ports",
    "ioperm": "hardware I/O ports",
    "lookup_dcookie": "kernel profiling",
    "vhangup": "terminals",
    "mq_notify": "a signal of one's choice when a message queue fills",
}

#: Denied to the code under test outright, on top of SANDBOX_DENIED: the supervisor
#: pins each runner to the grading CPU before it loads any code, and nothing may
#: change a process's CPUs, priority or scheduling policy afterwards (code that
#: widened its affinity for the length of a call ran on two cores against the
#: reference's one; one that lowered the reference's priority slowed it down).
RUNNER_DENIED = {
    "sched_setaffinity": "the CPUs a thread may run on",
    "sched_setscheduler": "the scheduling policy",
    "sched_setparam": "the scheduling priority",
    "sched_setattr": "the scheduling policy",
    "setpriority": "the nice value (of a process, a process group or a whole user)",
    "ioprio_set": "the I/O priority",
    "tkill": "signals to a thread chosen by id (glibc itself uses tgkill)",
    "pidfd_open": "a handle on another process",
    "pidfd_send_signal": "signals through a process handle",
    "migrate_pages": "another process's memory placement",
    "move_pages": "another process's memory placement",
    # A POSIX timer sends a signal of its owner's choosing, SIGCONT included: a paused
    # helper woke itself that way to work beside the reference (issue 29).
    "timer_create": "timers that send a signal of one's choice",
}

#: Allowed to the code under test only when their first argument is the runner's own
#: process id, so a process can still signal itself (raise(), abort(), the
#: interpreter's own use) but nothing else: not the reference, not the supervisor,
#: not a process group (kill(0, ...) and kill(-pgid, ...) reach the supervisor).
RUNNER_SELF_ONLY = {
    "kill": "signals",
    "tgkill": "signals to a thread of a process",
    "rt_sigqueueinfo": "signals with data",
    "rt_tgsigqueueinfo": "signals with data to a thread",
}

#: Allowed to the code under test only with 0 ("this process") as the process id.
RUNNER_ZERO_ONLY = {
    "prlimit64": "another process's resource limits",
}

#: Calls denied to every process in the sandbox for some values of one argument: the
#: routes by which the kernel itself sends a signal, on a process's behalf, to a process
#: the caller names (the kill/tgkill rules below never see those signals). Each is
#: (call, argument index, value, why); the call is denied when the argument equals it.
SANDBOX_DENIED_WHEN = (
    ("fcntl", 1, 8, "F_SETOWN: name the process that gets an fd's I/O signal"),
    ("fcntl", 1, 15, "F_SETOWN_EX: the same, for a thread or process group"),
    ("fcntl", 1, 10, "F_SETSIG: choose that signal (SIGSTOP, SIGSEGV...)"),
    ("ioctl", 1, 0x8901, "FIOSETOWN: F_SETOWN for sockets"),
    ("ioctl", 1, 0x8902, "SIOCSPGRP: F_SETOWN for sockets"),
    ("ioctl", 1, 0x5410, "TIOCSPGRP: a terminal's foreground group, which gets its signals"),
)

#: The same, for the code under test only (the runner sets its own parent-death
#: signal, SIGKILL, before it installs its filter).
RUNNER_DENIED_WHEN = (("prctl", 0, 1, "PR_SET_PDEATHSIG: a signal of one's choice when the parent thread ends"),)

#: clone() flags that make a new namespace. bubblewrap (--disable-userns) and Docker
#: (no capabilities) refuse them already; the filter refuses them on both alike.
NAMESPACE_CLONE_FLAGS = {
    "CLONE_NEWTIME": 0x00000080,
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}

DENIED_ERRNO = errno.EPERM
#: The kernel reads these commands as 32-bit ints and drops the upper half, so the
#: filter compares the lower half only (8 | 1 << 32 is F_SETOWN too).
COMMAND_MASK = 0xFFFFFFFF
#: clone3 passes its flags in memory, where a filter cannot read them. It answers
#: ENOSYS ("no such call"), on which glibc falls back to clone(), whose flags it can.
CLONE3_ERRNO = errno.ENOSYS
#: A denial: (call, errno, condition), condition None or (argument index, mask, value).
Rule = tuple[str, int, tuple[int, int, int] | None]


def sandbox_rules() -> list[Rule]:
    """SANDBOX_DENIED as (call, errno, condition) rules; condition is None (always) or
    (argument index, mask, value): the call is denied when argument & mask == value.
    Both the libseccomp filter here and Docker's profile (grader/sandbox/seccomp.py)
    are built from these."""
    rules: list[Rule] = [(name, DENIED_ERRNO, None) for name in SANDBOX_DENIED]
    rules += [(name, DENIED_ERRNO, (index, COMMAND_MASK, value)) for name, index, value, _ in SANDBOX_DENIED_WHEN]
    rules += [("clone", DENIED_ERRNO, (0, flag, flag)) for flag in NAMESPACE_CLONE_FLAGS.values()]
    rules.append(("clone3", CLONE3_ERRNO, None))
    return rules


def _new_filter() -> seccomp.SyscallFilter:
    """An allow-by-default filter with the sandbox rules, for every thread."""
    policy = seccomp.SyscallFilter(seccomp.ALLOW)
    policy.set_attr(seccomp.Attr.CTL_TSYNC, 1)
    for name, error, condition in sandbox_rules():
        conditions = (
            () if condition is None else (seccomp.Arg(condition[0], seccomp.MASKED_EQ, condition[1], condition[2]),)
        )
        _deny(policy, name, *conditions, error=error)
    return policy


def _deny(policy: seccomp.SyscallFilter, name: str, *conditions: seccomp.Arg, error: int = DENIED_ERRNO) -> None:
    # A call this architecture does not have (iopl on arm64, say) cannot be made there either.
    if seccomp.resolve_syscall(seccomp.system_arch(), name) >= 0:
        policy.add_rule(seccomp.ERRNO(error), name, *conditions)


def sandbox_filter() -> seccomp.SyscallFilter:
    """The SANDBOX filter, a libseccomp SyscallFilter."""
    return _new_filter()


def runner_filter(own_pid: int) -> seccomp.SyscallFilter:
    """The RUNNER filter for the process `own_pid`."""
    policy = _new_filter()
    for name in RUNNER_DENIED:
        _deny(policy, name)
    for name in RUNNER_SELF_ONLY:
        _deny(policy, name, seccomp.Arg(0, seccomp.NE, own_pid))
    for name in RUNNER_ZERO_ONLY:
        _deny(policy, name, seccomp.Arg(0, seccomp.NE, 0))
    for name, index, value, _ in RUNNER_DENIED_WHEN:
        _deny(policy, name, seccomp.Arg(index, seccomp.MASKED_EQ, COMMAND_MASK, value))
    return policy


def confine_runner() -> None:
    """Installs the RUNNER filter on the calling process (all its threads)."""
    runner_filter(os.getpid()).load()
