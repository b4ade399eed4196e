"""Inflate the echo level: the supervisor subtracts the harness's own transfer
cost, measured by "echo" calls to the reference runner, from both sides'
times. A double-forked helper that resumes itself from the sandbox's pause
(its own POSIX timers send it SIGCONT, as in timing_wake_from_freeze) watches
the reference runner and, as each of its calls and echoes is due (it is armed: dumpable), holds it
(SIGSTOP, then SIGCONT HOLD_S later). kill() to another process is filtered,
so the signals go through F_SETOWN + F_SETSIG + O_ASYNC on a pipe: the kernel
sends them when the helper writes. Reference and echo grow alike, so the
reference's net time is unchanged, while the submission's honest call is
"faster than the transfer" and sits at the net-time floor: a fake speedup of
tens. A held reference must not count, nor a figure built on it."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import ctypes
import fcntl
import mmap
import os
import signal
import time

F_SETSIG = 10
CLOCK_MONOTONIC = 1
SIGEV_SIGNAL = 0
#: A stopped helper runs again within WAKE_NS (its own timer continues it); it stops
#: itself for that long every STOP_EVERY_S, so every freeze check sees it stopped.
WAKE_NS = 600_000
STOP_EVERY_S = 0.003
#: How often it looks at the reference while the reference is frozen, and in its turn.
POLL_S = 0.0003
TURN_POLL_S = 0.0001
#: The helper gives up after this long (the sandbox is gone long before).
LIFETIME_S = 8.0
#: How long each call and echo of the reference is held stopped.
HOLD_S = 0.08


class _Sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int), ("pad", ctypes.c_int * 12)]


class _Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval", _Timespec), ("value", _Timespec)]


def _reference_pid():
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        for position, word in enumerate(argv[:-1]):
            if word.endswith(b"runner.py") and argv[position + 1] == b"reference":
                return int(name)
    return None


class _Waker:
    """One-shot POSIX timers that send this process SIGCONT, re-armed all the
    time so one is always due within WAKE_NS: whoever stops this process, it
    runs again that soon. (Not a periodic timer: a periodic timer re-arms only
    once its signal is delivered, and a SIGSTOP discards a pending SIGCONT, so
    one stop at the wrong moment would leave it stopped for good. Two spares,
    due later, cover that.) And a way to stop this process at once: a pipe that
    signals its owner, this process, with SIGSTOP when written (the kernel
    sends it, so no kill() filter sees it)."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        signal.signal(signal.SIGCONT, lambda *_: None)  # handled, so never ignored and dropped
        self.timers = []
        for _ in range(3):
            event = _Sigevent(signo=signal.SIGCONT, notify=SIGEV_SIGNAL)
            timer = ctypes.c_void_p()
            if self.libc.timer_create(CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(timer)) != 0:
                raise OSError(ctypes.get_errno(), "timer_create")
            self.timers.append(timer)
        self.specs = [_Itimerspec(_Timespec(0, 0), _Timespec(0, WAKE_NS * factor)) for factor in (1, 4, 12)]
        self.rearm()
        self.read_end, self.write_end = os.pipe()
        fcntl.fcntl(self.read_end, fcntl.F_SETOWN, os.getpid())
        fcntl.fcntl(self.read_end, F_SETSIG, signal.SIGSTOP)
        fcntl.fcntl(self.read_end, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)

    def rearm(self):
        for timer, spec in zip(self.timers, self.specs):
            self.libc.timer_settime(timer, 0, ctypes.byref(spec), None)

    def stop(self):
        """Stopped until the first timer's SIGCONT, WAKE_NS from now."""
        self.rearm()
        os.write(self.write_end, b"s")
        try:
            os.read(self.read_end, 64)
        except BlockingIOError:
            pass


def _reference_pid():
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        for position, word in enumerate(argv[:-1]):
            if word.endswith(b"runner.py") and argv[position + 1] == b"reference":
                return int(name)
    return None


def _state(stat_fd):
    try:
        raw = os.pread(stat_fd, 512, 0)
    except OSError:
        return None
    return raw[raw.rfind(b")") + 2:raw.rfind(b")") + 3]


class _Signaller:
    """Signals another process without kill() or tgkill(), which the runner's filter
    limits to the runner itself: a pipe whose read end is owned (F_SETOWN) by that
    process, with F_SETSIG and O_ASYNC. Each write makes the kernel send the signal."""

    def __init__(self, pid, signum):
        self.read_end, self.write_end = os.pipe()
        fcntl.fcntl(self.read_end, fcntl.F_SETOWN, pid)
        fcntl.fcntl(self.read_end, F_SETSIG, signum)
        fcntl.fcntl(self.read_end, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)

    def send(self):
        os.write(self.write_end, b"s")
        try:
            os.read(self.read_end, 64)
        except BlockingIOError:
            pass


class _Watch:
    """The reference runner's turns as a helper that resumes itself sees them. A
    turn runs from the supervisor continuing it until it is frozen again; in it,
    the runner is dumpable from "arm" until the "call" (or "echo") reaches it, and
    only then can its /proc/<pid>/cwd be read: the call is due any moment."""

    def __init__(self, reference):
        self.reference = reference
        self.waker = _Waker()
        self.stat_fd = os.open(f"/proc/{reference}/stat", os.O_RDONLY)
        self.started = self.last_stop = time.monotonic()

    def alive(self):
        return time.monotonic() - self.started < LIFETIME_S

    def armed(self):
        try:
            os.readlink(f"/proc/{self.reference}/cwd")
            return True
        except OSError:
            return False

    def next_armed(self):
        """Waits until the reference is armed for its next call or echo (it turns
        dumpable: one rising edge per call); False when it is gone."""
        was_armed = True
        while self.alive():
            if time.monotonic() - self.last_stop >= STOP_EVERY_S:
                self.waker.stop()
                self.last_stop = time.monotonic()
                continue
            self.waker.rearm()
            state = _state(self.stat_fd)
            if state is None:
                return False
            armed = self.armed()
            if armed and not was_armed:
                return True
            was_armed = armed
            time.sleep(POLL_S if state in (b"T", b"t") else TURN_POLL_S)
        return False

    def running(self):
        """Whether the reference is running (or runnable) now."""
        return _state(self.stat_fd) == b"R"

    def hold(self, seconds):
        """Sleeps `seconds` with the timers armed to wake us should anything stop us."""
        until = time.monotonic() + seconds
        while True:
            left = until - time.monotonic()
            if left <= 0:
                break
            self.waker.rearm()
            time.sleep(min(left, 0.0005))
        self.last_stop = time.monotonic()


def _start_helper(helper):
    reference = _reference_pid()
    if reference is None:
        return
    child = os.fork()
    if child == 0:
        try:
            if os.fork() == 0:
                os.setsid()
                try:
                    helper(reference)
                finally:
                    os._exit(0)
        finally:
            os._exit(0)
    os.waitpid(child, 0)


#: Shared with the helper: [0] how many calls the submission has had.
_SHARED = np.frombuffer(mmap.mmap(-1, 4096), dtype=np.int64)


def _helper(reference):
    watch = _Watch(reference)
    stop = _Signaller(reference, signal.SIGSTOP)
    resume = _Signaller(reference, signal.SIGCONT)
    while watch.next_armed():
        stop.send()
        watch.hold(HOLD_S)
        resume.send()


_start_helper(_helper)


def transform(x):
    _SHARED[0] += 1
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
