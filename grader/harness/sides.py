"""A runner process as the supervisor sees it, and the measured call.

One call, identical for the reference and the submission:

  1. every other process in the sandbox is stopped (SIGSTOP); the supervisor
     uses, on the runner's CPU, as much memory as the runner's last call
     allocated and the result memfd will take (warm.py), then this runner's tree is continued and told to
     "arm" (no inputs yet, so nothing it could do now would help it later);
  2. its CPU time, resident memory and scratch usage are read and its peak-RSS
     counter reset;
  3. on CPU: the clock starts, the "call" carrying the fresh inputs (a memfd)
     goes out, the sealed result comes back, and the clock stops: serialising
     the result happens inside the window, and the inputs arrive with the call
     so that no work on them can happen before the clock starts. The result
     memfd's pages are allocated by the supervisor before the clock starts
     (ipc.spare_result_memfd), so the window holds the copy, not the
     allocation. That
     transfer work is the harness's, the same on both sides, so the supervisor
     measures it apart with "echo" calls to the trusted reference runner
     through this same path (the same inputs go out, an answer shaped like the
     reference's, computed from nothing, comes back) and subtracts it
     (supervisor.Grading._echo).
     On GPU the call has three phases, because copying between host and
     device memory would cost more than the kernels being compared: "stage"
     delivers the inputs and the runner copies them to the device and
     synchronises it (timed apart, as staging_seconds); the clock starts,
     "call" runs the entry point on the staged inputs, the runner synchronises
     the whole device and answers "done", and the clock stops; "fetch" then
     brings the sealed result home (timed apart, as fetch_seconds). The
     supervisor compares both untimed phases with the reference's, so work
     moved into them is caught (supervisor.copy_phase_overrun). The window
     still holds the harness's round trip and the device synchronisation (a
     fixed cost a call, which can exceed a small kernel's time), so the
     reference runner echoes here too: "echo" times that window with no
     entry point in it, nothing staged and nothing fetched;
  4. everything is stopped again and CPU time and peak RSS are read; every
     process that was paused in 1 must show that it never ran meanwhile
     (procs.ran_while_paused: no CPU time gained, no thread started or
     ended), or the call is void, whatever woke it.

A runner is therefore stopped whenever it is not in its own call, so no
thread or child of it can work in the background; any CPU time it gains
between calls anyway counts as work outside the timed region.
"""

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard, cast

import numpy as np
import numpy.typing as npt

from . import ipc, lines, procs, warm
from .gpu import DeviceHoldings, Placement
from .job import Job
from .measure import DeviceProbe, OutputDrain, Sampler, scratch_used_bytes
from .per_size import Role

ARM_TIMEOUT_NS = 5_000_000_000
SAMPLER_START_TIMEOUT_S = 1.0
NS = 1_000_000_000

Status = Literal["ok", "error", "timeout", "memory", "output", "died", "protocol", "tampered", "unfrozen"]
#: A row of a profile table (_profile_rows): its text field and its numbers.
ProfileRow = dict[str, str | int | float]
#: A reply from a runner and the result memfd that came with it, mapped (None when it has none).
Result = tuple[dict[str, object] | None, ipc.Buffer | None]


@dataclass
class CallOutcome:
    status: Status  # ok | error | timeout | memory | output | died | protocol | tampered | unfrozen
    seconds: float = 0.0
    value: object = None
    error: dict[str, str] = field(default_factory=dict)
    detail: str = ""
    peak_tree_bytes: int = 0
    base_tree_bytes: int = 0
    input_bytes: int = 0
    scratch_growth_bytes: int = 0
    # GPU with NVML: the most device memory the runner held during the call, its pool's
    # blocks from earlier calls included (gpu.DeviceHoldings).
    device_bytes: int | None = None
    cpu_seconds: float = 0.0
    # The wall time cpu_seconds was read over: the call and, on a GPU, the copies
    # before and after it (staging_seconds, fetch_seconds), which are CPU work too.
    cpu_window_seconds: float = 0.0
    # How long, inside the call, another process held the runner's CPU (procs.held_by_others_seconds):
    # already taken off `seconds`. None where it cannot be told, and then nothing was taken off.
    waited_seconds: float | None = None
    # CPU reference calls and echoes only: how long, inside the timed window, the
    # runner's tree was neither on its CPU nor waiting for it (sides.OffCpuWatch).
    off_cpu_seconds: float | None = None
    process_count: int = 0
    staging_seconds: float | None = None  # GPU only, like fetch_seconds
    fetch_seconds: float | None = None
    answer_bytes: int = 0  # size of the result memfd the answer came in
    # GPU only, as the runner's Device saw them (gpu.py): where each array of the
    # answer lived, and which device arguments no longer match their inputs.
    placement: list[Placement | None] = field(default_factory=list)
    modified_arguments: list[int] = field(default_factory=list)
    # A profiled call only: the module's own functions and slowest lines (runner.Runner.profile).
    profile: list[ProfileRow] | None = None
    profile_lines: list[ProfileRow] | None = None
    profile_traced_s: float | None = None  # the traced function's own time, without the harness's transfers


class Side:
    def __init__(
        self,
        role: Role,
        module_path: str,
        source: str,
        job: Job,
        scratch: str,
        harness_dir: str,
        device_probe: DeviceProbe | None = None,
        scratch_is_tmpfs: bool = False,
        cpus: Collection[int] | None = None,
    ) -> None:
        self.role = role
        self.module_path = module_path  # the name its tracebacks show; no file need be there
        self.source = source
        self.job = job
        self.scratch = scratch
        self.harness_dir = harness_dir
        self.device_probe = device_probe
        self.device_holdings = DeviceHoldings()
        self.scratch_is_tmpfs = scratch_is_tmpfs
        # The CPUs this runner is pinned to (None: wherever the kernel puts it).
        self.cpus = cpus
        # What its last call allocated (warm.allocated_bytes): warmed before its next (warm.py).
        self.allocated_bytes = 0
        self.memory_limit_bytes = job.memory_limit_bytes
        self.process: subprocess.Popen[bytes] | None = None
        self.channel: ipc.Channel | None = None
        self.drain: OutputDrain | None = None
        self.hardware: str | None = None
        self.cpu_mark: float | None = None
        # Runner pids whose processes never count against this side (set by the
        # supervisor on the submission side: the reference runner's tree).
        self.trusted_peers: tuple[int, ...] = ()
        self.outside_cpu_seconds = 0.0
        self.off_cpu_seconds: float | None = None
        self.load_sampler: Sampler | None = None
        self.expected_scheduling: set[procs.Scheduling] | None = None
        # Resident memory before the module's own code ran (see wait_hello).
        self.baseline_bytes = 0

    @property
    def pid(self) -> int:
        assert self.process is not None  # start() made it
        return self.process.pid

    def start(self) -> None:
        home = os.path.join(self.scratch, self.role)
        os.makedirs(os.path.join(home, "numba-cache"), exist_ok=True)
        env = dict(os.environ, HOME=home, TMPDIR=home, NUMBA_CACHE_DIR=os.path.join(home, "numba-cache"))
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        output_read, output_write = os.pipe()
        command = [
            sys.executable,
            "-I",
            "-B",
            os.path.join(self.harness_dir, "runner.py"),
            self.role,
            str(theirs.fileno()),
            self.module_path,
            self.job.entry_point,
            self.job.target,
            str(self.memory_limit_bytes),
            json.dumps(self.job.allowed_imports),
            json.dumps(sorted(self.cpus or ())),
        ]
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=output_write,
                stderr=output_write,
                pass_fds=(theirs.fileno(),),
                env=env,
                cwd=home,
                close_fds=True,
            )
        finally:
            os.close(output_write)
            theirs.close()
        if self.cpus is not None:
            # Before the interpreter has started any thread; later ones inherit it.
            try:
                os.sched_setaffinity(self.pid, self.cpus)
            except ProcessLookupError:
                pass  # it died at once: wait_hello reports how
        self.channel = ipc.Channel(ours)
        try:
            self.channel.send({"op": "module", "source": self.source})
        except OSError:
            pass  # it died at once: wait_hello reports how
        self.drain = OutputDrain(output_read, self.job.output_limit_bytes, self.kill)
        self.drain.start()
        self.load_sampler = Sampler(self.pid, self.memory_limit_bytes)
        self.load_sampler.start()

    def wait_hello(self, deadline_ns: int) -> CallOutcome:
        """CallOutcome of loading the module (status ok carries the hardware name).
        The memory baseline is taken first, while the runner waits at "ready"
        with its libraries loaded and none of the module's code run; on a GPU,
        what loading the module took on the device starts its holdings."""
        # start() made them
        assert self.channel is not None and self.load_sampler is not None and self.drain is not None
        try:
            self._await("ready", deadline_ns)
            self.baseline_bytes = procs.tree_rss_bytes([self.pid])
            # The other runner is idle, or not started yet: the change is this module's.
            device_before = self.device_probe.used_bytes() if self.device_probe else None
            self.channel.send({"op": "load"})
            message, fds = self.channel.receive(deadline_ns)
            ipc.close_fds(fds)
            if message.get("op") != "hello":
                raise ipc.ProtocolError("expected hello")
            device_after = self.device_probe.used_bytes() if self.device_probe and device_before is not None else None
            if device_before is not None and device_after is not None:
                self.device_holdings.changed(device_before, device_after)
            if message.get("ok") is True:
                self.hardware = str(message.get("hardware", "cpu"))[:200]
                self.expected_scheduling = procs.scheduling(self.pid)
                outcome = CallOutcome("ok", value=self.hardware)
            else:
                outcome = CallOutcome("error", error=_clean_error(message.get("error")))
        except TimeoutError:
            self.kill()
            outcome = CallOutcome("timeout")
        except (ipc.ChannelClosed, BrokenPipeError, ConnectionResetError):
            outcome = self._death()
        except ipc.ProtocolError as exc:
            self.kill()
            outcome = CallOutcome("protocol", detail=str(exc))
        finally:
            self.load_sampler.finish()
        if self.load_sampler.breached_bytes is not None:
            return CallOutcome("memory", peak_tree_bytes=self.load_sampler.breached_bytes)
        if self.drain.exceeded:
            return CallOutcome("output")
        return outcome

    def call(
        self,
        bundle: "InputBundle",
        budget_ns: int,
        deadline_ns: int,
        echo_like: Mapping[str, object] | None = None,
        answer_bytes: int = 0,
        profile: bool = False,
        fresh_device_pool: bool = False,
    ) -> CallOutcome:
        """One measured call on `bundle` (an InputBundle). See the module docstring.
        With `echo_like` (reference only) the runner computes nothing: on CPU
        it returns a blank answer of that shape (an ipc.encode description); on
        GPU, where there is nothing to send back, the outcome has no value.
        `answer_bytes` (CPU) pre-allocates that much of the result memfd before
        the clock starts (ipc.spare_result_memfd); 0 lets the runner allocate.
        With `profile` (CPU submission only) the runner calls the entry point
        under cProfile and the outcome's `profile` holds its functions. With
        `fresh_device_pool` (GPU, a new input) the runner first empties its
        CuPy pool, untimed (gpu.py says why the pool is kept otherwise)."""
        try:
            process_count = procs.freeze_all_except(self.pid)
        except procs.FreezeFailed as exc:
            return CallOutcome("unfrozen", detail=str(exc))
        if self.role == "reference":
            assert self.expected_scheduling is not None  # wait_hello read it before any call
            if not procs.scheduling(self.pid) <= self.expected_scheduling:
                self.kill()
                return CallOutcome("tampered", detail="its scheduling priority or CPU affinity was changed")
        # What the last call allocated, plus the result memfd allocated after this and before the clock
        # (ipc.spare_result_memfd), which takes warmed pages first; no more than the limit.
        warm.warm_on(self.cpus, min(self.allocated_bytes + answer_bytes, self.memory_limit_bytes))
        paused = procs.paused_snapshot(self.pid)
        procs.resume_tree(self.pid)
        assert self.channel is not None and self.drain is not None  # start() made them
        try:
            self.channel.send({"op": "arm"})
            self._await("armed", time.perf_counter_ns() + ARM_TIMEOUT_NS)
            if fresh_device_pool and self.job.target == "gpu":
                self._release_device_pool(time.perf_counter_ns() + ARM_TIMEOUT_NS)
        except (ipc.ProtocolError, TimeoutError, OSError) as exc:
            self.kill()
            return CallOutcome("protocol", detail=f"arm: {exc!r}")
        except ipc.ChannelClosed:
            return self._death()

        cpu_before = procs.tree_cpu_seconds(self.pid)
        cpu_window_started = time.perf_counter_ns()
        if self.cpu_mark is not None:
            self.outside_cpu_seconds += max(0.0, cpu_before - self.cpu_mark)
        members = procs.accountable(self.pid, self.trusted_peers)
        if self.role != "reference":  # the reference reset its own at "arm" (runner.reset_own_peak)
            procs.reset_peak_rss(self.pid)
        base_own = procs.rss_bytes(self.pid)
        base_tree = procs.tree_rss_bytes(members)
        scratch_before = scratch_used_bytes(self.scratch) if self.scratch_is_tmpfs else None
        device_before = self.device_probe.used_bytes() if self.device_probe else None
        sampler = Sampler(
            self.pid,
            self.memory_limit_bytes,
            self.scratch if self.scratch_is_tmpfs else None,
            self.device_probe,
            trusted_roots=self.trusted_peers,
        )
        sampler.start()
        sampler.first_sample_taken.wait(SAMPLER_START_TIMEOUT_S)

        outcome: CallOutcome | None = CallOutcome("ok")
        clock = PhaseClock()
        self.off_cpu_seconds = None
        # Read once the sampler thread has started: a thread started between the two
        # readings (in the sandbox, the supervisor's too) means nothing is taken off.
        schedule_before = procs.tree_schedule(self.pid)
        schedule_after = None
        try:
            reply, buffer = self._exchange(bundle, budget_ns, deadline_ns, clock, echo_like, answer_bytes, profile)
            schedule_after = procs.tree_schedule(self.pid)
        except TimeoutError:
            self.kill()
            outcome = CallOutcome("timeout")
        except ipc.ChannelClosed:
            outcome = None
        except (ipc.ProtocolError, OSError, ValueError) as exc:
            self.kill()
            outcome = CallOutcome("protocol", detail=repr(exc)[:300])
        finally:
            sampler.finish()
        try:
            procs.freeze_all_except(None)
        except procs.FreezeFailed as exc:
            return CallOutcome("unfrozen", detail=str(exc))
        woken = procs.ran_while_paused(paused)
        if woken is not None:
            return CallOutcome("unfrozen", detail=woken)
        seconds = clock.seconds("call") or 0.0

        if sampler.breached_bytes is not None:
            return CallOutcome("memory", peak_tree_bytes=sampler.breached_bytes, seconds=seconds)
        if self.drain.exceeded:
            return CallOutcome("output")
        if outcome is None:
            return self._death()
        if outcome.status != "ok":
            outcome.seconds = seconds
            return outcome

        cpu_after = procs.tree_cpu_seconds(self.pid)
        outcome.cpu_window_seconds = (time.perf_counter_ns() - cpu_window_started) / NS
        self.cpu_mark = cpu_after
        # Time other processes held this runner's CPU is theirs, not the code's: a
        # busy host's other work then moves neither side's time (docs/benchmarks.md).
        outcome.waited_seconds = procs.held_by_others_seconds(schedule_before, schedule_after, seconds)
        seconds -= outcome.waited_seconds or 0.0
        peak_own = procs.peak_rss_bytes(self.pid)
        self.allocated_bytes = warm.allocated_bytes(peak_own - base_own, bundle.size)
        outcome.seconds = seconds
        outcome.staging_seconds = clock.seconds("staging")
        outcome.fetch_seconds = clock.seconds("fetch")
        outcome.cpu_seconds = cpu_after - cpu_before
        outcome.off_cpu_seconds = self.off_cpu_seconds
        outcome.base_tree_bytes = base_tree
        outcome.peak_tree_bytes = max(sampler.peak_tree_bytes, peak_own + (base_tree - base_own))
        outcome.input_bytes = bundle.size
        outcome.process_count = process_count
        if scratch_before is not None:
            outcome.scratch_growth_bytes = max(0, sampler.peak_scratch_bytes - scratch_before)
        device_after = self.device_probe.used_bytes() if self.device_probe and device_before is not None else None
        if device_before is not None and device_after is not None and sampler.peak_device_bytes is not None:
            outcome.device_bytes = self.device_holdings.call_peak(
                device_before, sampler.peak_device_bytes, device_after
            )
        if reply is None:  # a GPU echo: its time is all it brings
            return outcome
        if reply.get("ok") is True:
            assert buffer is not None  # _result_buffer maps one for every ok reply
            outcome.answer_bytes = cast(int, reply["size"])  # an int: _result_buffer checked it
            try:
                outcome.placement, outcome.modified_arguments = _device_checks(reply)
                if profile:
                    outcome.profile = _profile_rows(reply, *PROFILE_FUNCTIONS)
                    outcome.profile_lines = _profile_rows(reply, *PROFILE_LINES)
                    outcome.profile_traced_s = _traced_seconds(reply)
                outcome.value = ipc.decode(reply.get("value"), buffer)
            except ipc.ProtocolError as exc:
                self.kill()
                return CallOutcome("protocol", detail=str(exc))
        else:
            outcome.status = "error"
            outcome.error = _clean_error(reply.get("error"))
        return outcome

    def _release_device_pool(self, deadline_ns: int) -> None:
        """Empties the runner's CuPy pool; what that freed leaves its holdings."""
        assert self.channel is not None  # start() made it
        before = self.device_probe.used_bytes() if self.device_probe else None
        self.channel.send({"op": "release"})
        self._await("released", deadline_ns)
        after = self.device_probe.used_bytes() if self.device_probe and before is not None else None
        if before is not None and after is not None:
            self.device_holdings.changed(before, after)

    def _exchange(
        self,
        bundle: "InputBundle",
        budget_ns: int,
        deadline_ns: int,
        clock: "PhaseClock",
        echo_like: Mapping[str, object] | None = None,
        answer_bytes: int = 0,
        profile: bool = False,
    ) -> Result:
        """Sends the inputs, runs the call and receives its result: (reply, buffer).
        Only clock's "call" phase is the timed window (see the module docstring)."""
        assert self.channel is not None  # start() made it
        inputs = {"args": bundle.meta, "size": bundle.size}
        input_fds = [bundle.fd] if bundle.fd is not None else []
        if self.job.target != "gpu":
            request: dict[str, object] = (
                {"op": "profile" if profile else "call"} if echo_like is None else {"op": "echo", "like": echo_like}
            )
            spare = ipc.spare_result_memfd(answer_bytes) if answer_bytes > 0 else None
            if spare is not None:
                request["spare_result"] = True
            watch = OffCpuWatch(self.pid) if self.role == "reference" else None
            try:
                with clock.phase("call") as started:
                    self.channel.send({**request, **inputs}, input_fds + ([spare] if spare is not None else []))
                    result = self._receive_result(min(started + budget_ns, deadline_ns))
                if watch is not None:
                    self.off_cpu_seconds = watch.seconds(result[0].get("window_ns"))
                return result
            finally:
                if spare is not None:
                    os.close(spare)
        if echo_like is not None:
            with clock.phase("call") as started:
                self.channel.send({"op": "echo"})
                self._await("done", min(started + budget_ns, deadline_ns))
            return None, None
        with clock.phase("staging"):
            self.channel.send({"op": "stage", **inputs}, input_fds)
            self._await("staged", deadline_ns)
        with clock.phase("call") as started:
            self.channel.send({"op": "call"})
            self._await("done", min(started + budget_ns, deadline_ns))
        with clock.phase("fetch"):
            self.channel.send({"op": "fetch"})
            return self._receive_result(deadline_ns)

    def _await(self, op: str, deadline_ns: int) -> None:
        """Receives a reply that carries nothing but its `op`."""
        assert self.channel is not None  # start() made it
        message, fds = self.channel.receive(deadline_ns)
        ipc.close_fds(fds)
        if message.get("op") != op:
            raise ipc.ProtocolError(f"expected {op}")

    def _receive_result(self, deadline_ns: int) -> tuple[dict[str, object], ipc.Buffer | None]:
        """The result reply and its sealed memfd, mapped."""
        assert self.channel is not None  # start() made it
        reply, fds = self.channel.receive(deadline_ns)
        try:
            return reply, _result_buffer(reply, fds)
        finally:
            ipc.close_fds(fds)

    def _death(self) -> CallOutcome:
        """The runner closed its channel: find out why."""
        assert self.process is not None and self.drain is not None  # start() made them
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.wait()
        if self.drain.exceeded:
            return CallOutcome("output")
        if code < 0:
            return CallOutcome("died", detail=f"killed by signal {-code} ({procs.signal_name(-code)})")
        return CallOutcome("died", detail=f"the process exited with code {code} before returning")

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            procs.kill_tree(self.pid)

    def output_tail(self) -> str:
        return self.drain.tail_text() if self.drain else ""


class OffCpuWatch:
    """How long a trusted runner spent neither on a CPU nor waiting for one (so:
    stopped, or asleep) while it answered one message.

    The runner stamps when it had the message and when it answered
    (runner._send_result's window_ns); its threads' run and wait times are read
    before the message goes out and after the answer is in, a span that holds
    that window. Within it, a reference does nothing but work: held off its
    CPU (stopped by a signal, made to wait on something), whoever held it, it
    shows here. Only the reference's stamps are read: its process is out of
    the submission's reach."""

    def __init__(self, root: int) -> None:
        self.pids = procs.subtree(root)
        self.before = procs.thread_times_ns(self.pids)

    def seconds(self, window_ns: object) -> float | None:
        """Off-CPU seconds within `window_ns` ([had the message, answered]; never
        negative), or None where it cannot be told."""
        after = procs.thread_times_ns(self.pids)
        if self.before is None or after is None or not _is_window(window_ns):
            return None
        accounted_ns = (after[0] - self.before[0]) + (after[1] - self.before[1])
        return max(0, window_ns[1] - window_ns[0] - accounted_ns) / NS


def _is_window(value: object) -> TypeGuard[list[int]]:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(type(stamp) is int for stamp in value)
        and 0 <= value[1] - value[0] < 3600 * NS
    )


class PhaseClock:
    """The supervisor's own clock over the phases of one call."""

    def __init__(self) -> None:
        self.elapsed_ns: dict[str, int] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[int]:
        """Times the block, also when it raises; yields its start (perf_counter_ns)."""
        started = time.perf_counter_ns()
        try:
            yield started
        finally:
            self.elapsed_ns[name] = time.perf_counter_ns() - started

    def seconds(self, name: str) -> float | None:
        """The phase's duration, or None when the call had no such phase."""
        return self.elapsed_ns[name] / NS if name in self.elapsed_ns else None


def _result_buffer(reply: Mapping[str, object], fds: Sequence[int]) -> ipc.Buffer | None:
    """Validates a result reply and maps its sealed memfd (before the clock stops)."""
    if reply.get("op") != "result" or type(reply.get("ok")) is not bool:
        raise ipc.ProtocolError("expected a result")
    if not reply["ok"]:
        if fds:
            raise ipc.ProtocolError("unexpected descriptor")
        return None
    size = reply.get("size")
    if type(size) is not int or size < 0 or size > ipc.MAX_ARRAY_BYTES:
        raise ipc.ProtocolError("bad result size")
    if size == 0:
        if fds:
            raise ipc.ProtocolError("unexpected descriptor")
        return ipc.Buffer()
    if len(fds) != 1:
        raise ipc.ProtocolError("expected one result descriptor")
    return ipc.Buffer.from_sealed_fd(fds[0], size)


def _device_checks(reply: Mapping[str, object]) -> tuple[list[Placement | None], list[int]]:
    """The GPU fetch's placement and modified_arguments, validated (empty on CPU)."""
    placement = reply.get("placement", [])
    modified = reply.get("modified_arguments", [])
    if not (isinstance(placement, list) and all(where in ("device", "host", None) for where in placement)):
        raise ipc.ProtocolError("bad placement")
    if not (isinstance(modified, list) and all(type(position) is int and position >= 0 for position in modified)):
        raise ipc.ProtocolError("bad modified_arguments")
    return placement, modified


#: The two tables a "profile" reply carries (runner.Runner.profile): the reply's key,
#: the most rows, the text field and how much of it is kept, each number's type.
PROFILE_FUNCTIONS = (
    "profile",
    100,
    "function",
    100,
    {"line": int, "calls": int, "own_s": float, "cumulative_s": float},
)
PROFILE_LINES = (
    "profile_lines",
    lines.MAX_LINES,
    "code",
    lines.MAX_CODE_CHARS,
    {"line": int, "hits": int, "seconds": float},
)


def _profile_rows(
    reply: Mapping[str, object],
    key: str,
    most: int,
    text: str,
    text_chars: int,
    numbers: Mapping[str, Callable[[float], float]],
) -> list[ProfileRow]:
    """One table of a "profile" reply, validated: the submission's runner wrote
    it, so it is checked and cut to size like anything else it sends."""
    rows = reply.get(key)
    if not isinstance(rows, list) or len(rows) > most:
        raise ipc.ProtocolError(f"bad {key}")
    clean: list[ProfileRow] = []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get(text), str):
            raise ipc.ProtocolError(f"bad {key} row")
        values: dict[str, Any] = {name: row.get(name) for name in numbers}  # JSON, checked next
        if not all(type(value) in (int, float) and value >= 0 for value in values.values()):
            raise ipc.ProtocolError(f"bad {key} row")
        clean.append({text: row[text][:text_chars], **{name: kind(values[name]) for name, kind in numbers.items()}})
    return clean


def _traced_seconds(reply: Mapping[str, object]) -> float:
    seconds: Any = reply.get("profile_traced_s")  # JSON, checked next
    if type(seconds) not in (int, float) or not 0 <= seconds < float("inf"):
        raise ipc.ProtocolError("bad profile_traced_s")
    return float(seconds)


def _clean_error(error: object) -> dict[str, str]:
    if not isinstance(error, dict):
        return {"type": "Error", "traceback": ""}
    return {
        "type": str(error.get("type", "Error"))[:100],
        "traceback": str(error.get("traceback", ""))[:8000],
    }


class InputBundle:
    """One call's arguments in a fresh memfd, plus what is needed to tell
    afterwards whether the runner changed them."""

    def __init__(self, args: Iterable[object]) -> None:
        arena = ipc.Arena(huge_aligned=True)
        items = []
        # (argument position, offset in the memfd, original array)
        self.regions: list[tuple[int, int, npt.NDArray[np.generic]]] = []
        for position, value in enumerate(args):
            first = len(arena.arrays)
            items.append(ipc.encode(value, arena))
            self.regions.extend((position, offset, array) for offset, array in arena.arrays[first:])
        self.meta = {"t": "tuple", "items": items}
        self.size = arena.size
        self.fd = arena.write_memfd("hotpath-inputs", seal=False)

    def modified_arguments(self) -> list[int]:
        """Positions (0-based) of arguments whose array bytes changed."""
        if self.fd is None:
            return []
        view = ipc.map_shared(self.fd, self.size, writable=False)
        changed: set[int] = set()
        for position, offset, original in self.regions:
            now = view[offset : offset + original.nbytes]
            if original.nbytes and not ipc.same_bytes(now, original.reshape(-1).view(np.uint8)):
                changed.add(position)
        return sorted(changed)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
