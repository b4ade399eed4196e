"""Run while the sandbox is paused: a double-forked helper (an orphan, so its CPU
time is in no runner's tree) arms its own POSIX timer to send it SIGCONT
(timer_create with sigev_signo=SIGCONT: a signal the kernel generates, which no
kill() filter sees), one-shot timers re-armed all the time, a SIGCONT handler installed, and
stops itself for ~0.6 ms every few ms so that each freeze check finds it
stopped once. Between those stops it burns CPU whenever the reference runner
is in a call (the runners share one CPU), so the reference's calls slow down
and the submission's honest chain looks faster. The freeze must hold: a
process that resumes itself is still running beside the timed call."""
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
import os
import signal
import mmap
import time

F_SETSIG = 10
CLOCK_MONOTONIC = 1
SIGEV_SIGNAL = 0
#: How many helpers burn beside the reference's calls (each an orphan on the runners' CPU).
HELPERS = 4
#: A stopped helper runs again within WAKE_NS (its own timer continues it); it stops
#: itself for that long every STOP_EVERY_S, so every freeze check sees it stopped.
WAKE_NS = 600_000
STOP_EVERY_S = 0.003
#: While idle it looks at the reference this often.
POLL_S = 0.0004
#: It gives up after this long (the sandbox is torn down long before).
LIFETIME_S = 30.0


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


def _state(stat_fd):
    try:
        raw = os.pread(stat_fd, 512, 0)
    except OSError:
        return None
    return raw[raw.rfind(b")") + 2:raw.rfind(b")") + 3]


def _helper(reference):
    """Burns the CPU through every reference call, not through its echo calls (the
    harness's own transfer, which it subtracts: slowing them would slow both sides'
    net figures). An echo always follows a call at once, with no submission call
    in between: the reference's turns since our last call alternate call, echo."""
    waker = _Waker()
    stat_fd = os.open(f"/proc/{reference}/stat", os.O_RDONLY)
    started = last_stop = time.monotonic()
    in_turn, turns, seen_calls = False, 0, _SHARED[0]
    while time.monotonic() - started < LIFETIME_S:
        now = time.monotonic()
        if now - last_stop >= STOP_EVERY_S:
            waker.stop()
            last_stop = time.monotonic()
            continue
        waker.rearm()
        state = _state(stat_fd)
        if state is None:
            break
        if state in (b"T", b"t"):  # frozen: the submission's turn, or between calls
            in_turn = False
            time.sleep(POLL_S)
            continue
        if not in_turn:  # the reference's turn begins (from its "arm" on)
            in_turn = True
            if _SHARED[0] != seen_calls:
                seen_calls, turns = _SHARED[0], 0
            turns += 1
        if turns % 2 == 1:  # a call: burn beside it
            spin_until = time.monotonic() + 0.0002
            while time.monotonic() < spin_until:
                waker.rearm()
        else:
            time.sleep(POLL_S)
    os._exit(0)


def _start_helpers():
    reference = _reference_pid()
    if reference is None:
        return
    for _ in range(HELPERS):
        child = os.fork()
        if child == 0:
            try:
                if os.fork() == 0:
                    os.setsid()
                    _helper(reference)
            finally:
                os._exit(0)
        os.waitpid(child, 0)


#: Shared with the helpers: how many calls the submission has had.
_SHARED = np.frombuffer(mmap.mmap(-1, 4096), dtype=np.int64)
_start_helpers()


def transform(x):
    _SHARED[0] += 1
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
