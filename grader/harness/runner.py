"""One side of the comparison: a process that loads reference.py or
submission.py (its text comes from the supervisor, in the first message)
and calls its entry point when the supervisor says so.

    python3 -I -B runner.py ROLE SOCKET_FD MODULE_PATH ENTRY_POINT TARGET MEMORY_LIMIT ALLOWED_IMPORTS_JSON CPUS_JSON

Both sides run this same file, so both pay the same overhead per call. On
GPU a call is three messages, "stage", "call" and "fetch", so that only the
entry point and a device synchronisation are timed (see sides.py). The
reference's runner also answers "echo": on CPU the inputs arrive and a blank
answer shaped like the reference's goes back exactly as a call's would; on GPU
it synchronises the device and answers "done" as a call does, without running
the entry point. Either way the supervisor can measure and subtract the
harness's own share of a call. The supervisor trusts nothing the submission's runner says except the bytes of
its (sealed) result: timing, memory and CPU figures are taken from outside.
The reference runner is non-dumpable, so the submission cannot ptrace it or
open its memory; it is dumpable only inside its own "arm" handling, for the
calls that reset its peak-RSS counter, while every other process is paused.
"""

import cProfile
import importlib
import json
import linecache
import os
import pstats
import resource
import socket
import sys
import time
import traceback
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict, cast


def _bootstrap_package() -> None:
    """-I leaves the script's folder off sys.path; load the package by path.
    Each entry script (main.py, runner.py) carries this copy: until it has run
    there is no package to import it from, and putting /job on sys.path instead
    would make the job's other files (the reference among them) importable."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "harness", os.path.join(here, "__init__.py"), submodule_search_locations=[here]
    )
    assert spec is not None and spec.loader is not None  # a .py file's spec always has its loader
    package = importlib.util.module_from_spec(spec)
    sys.modules["harness"] = package
    spec.loader.exec_module(package)


if __name__ == "__main__":
    _bootstrap_package()
    __package__ = "harness"

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from . import imports, ipc, lines, procs, syscalls  # noqa: E402

if TYPE_CHECKING:
    from .gpu import Device

MAX_TRACEBACK_LINES = 40
#: Functions of the module's own code kept in a profile.
PROFILE_ROWS = 20
MAX_TRACEBACK_CHARS = 8000
DISPLAY_NAMES = {"submission": "solution.py", "reference": "reference.py"}


class FunctionRow(TypedDict):
    """One of the module's own functions in a profile (Runner._own_functions)."""

    function: str
    line: int
    calls: int
    own_s: float
    cumulative_s: float


class Runner:
    def __init__(
        self,
        role: str,
        channel: ipc.Channel,
        module_path: str,
        entry_point: str,
        target: str,
        allowed_imports: list[str],
        confine: Callable[[], None] | None = None,
    ) -> None:
        self.role = role
        self.channel = channel
        self.module_path = module_path
        self.entry_point = entry_point
        self.allowed_imports = allowed_imports
        self.device: Device | None = None
        self.function: Callable[..., object] | None = None
        self.received_ns = 0  # perf_counter_ns when the message being answered arrived
        # The module's text: the supervisor's first message (the reference's is in no file
        # the submission could read); module_path names it in tracebacks and profiles.
        self.source: str | None = None
        self.target = target
        # A GPU call's state between its "stage", "call" and "fetch" messages.
        self.staged_args: tuple[object, ...] | None = None
        self.host_args: tuple[object, ...] | None = None
        self.result: object = None
        self.error: dict[str, str] | None = None
        # Installs the system-call filter (syscalls.confine_runner in a runner
        # process; tests that serve a Runner on a thread pass none).
        self.confine = confine

    def serve(self) -> None:
        try:
            self.prepare()
        except (ipc.ChannelClosed, ipc.ProtocolError):
            return
        try:
            hardware = self.load()
        except BaseException as exc:
            self.channel.send({"op": "hello", "ok": False, "error": self.describe(exc)})
            return
        self.channel.send({"op": "hello", "ok": True, "hardware": hardware})
        while True:
            try:
                message, fds = self.channel.receive()
            except ipc.ChannelClosed:
                return
            self.received_ns = time.perf_counter_ns()
            op = message.get("op")
            if not self.handle(op, message, fds):
                return

    def handle(self, op: object, message: dict[str, object], fds: list[int]) -> bool:
        """Answers one supervisor message; False ends the runner."""
        if op == "arm":
            self.reset_own_peak()
            self.channel.send({"op": "armed"})
        elif self.device is None and op == "call":
            self.call(message, fds)
        elif self.device is None and op == "echo" and self.role == "reference":
            self.echo(message, fds)
        elif self.device is None and op == "profile" and self.role == "submission":
            self.profile(message, fds)
        elif self.device is not None and op == "stage":
            self.stage(message, fds)
        elif self.device is not None and op == "call":
            self.call_staged()
        elif self.device is not None and op == "echo" and self.role == "reference":
            self.echo_staged()
        elif self.device is not None and op == "fetch":
            self.fetch()
        elif self.device is not None and op == "release":
            self.device.release_pool()
            self.channel.send({"op": "released"})
        else:
            ipc.close_fds(fds)
            return False
        return True

    def reset_own_peak(self) -> None:
        """Starts this process's peak-RSS count (VmHWM) afresh. The reference is never
        dumpable to the others: its /proc files are then the kernel's, so it opens
        its own clear_refs in the few instructions it is dumpable here, while the
        supervisor holds every other process paused and proves afterwards that
        none of them ran (procs.ran_while_paused). Both sides make the same calls,
        so the two code paths stay identical."""
        procs.set_dumpable(True)
        procs.reset_peak_rss(os.getpid())
        procs.set_dumpable(self.role != "reference")

    def prepare(self) -> None:
        """Everything before the module's own code runs: the libraries it imports
        are loaded (their memory is not the module's doing), the runner is
        confined by its system-call filter, and "ready" lets the supervisor take
        the memory baseline while this process waits for "load". What the
        module allocates from its first line on counts against it. On a GPU
        the device is set up here too (its CUDA context is not the module's
        memory either)."""
        message, fds = self.channel.receive()
        ipc.close_fds(fds)
        source = message.get("source")
        if message.get("op") != "module" or not isinstance(source, str):
            raise ipc.ProtocolError("expected module")
        self.source = source
        allowed = None if self.role == "reference" else imports.allowed_modules(self.allowed_imports)
        for name in imports.imported_libraries(self.source, allowed):
            try:
                importlib.import_module(name)
            except BaseException:
                pass  # the module's own import statement reports it
        if self.target == "gpu":
            from .gpu import Device

            self.device = Device()
        if self.confine is not None:
            self.confine()
        self.channel.send({"op": "ready"})
        message, fds = self.channel.receive()
        ipc.close_fds(fds)
        if message.get("op") != "load":
            raise ipc.ProtocolError("expected load")

    def load(self) -> str:
        source = self.source
        assert source is not None  # prepare() received it
        code = compile(source, self.module_path, "exec", dont_inherit=True)
        linecache.cache[self.module_path] = (len(source), None, source.splitlines(True), self.module_path)
        module = types.ModuleType(self.role)
        module.__file__ = self.module_path
        if self.role == "submission":
            module.__dict__["__builtins__"] = imports.guarded_builtins(self.allowed_imports)
        sys.modules[self.role] = module
        exec(code, module.__dict__)
        function = module.__dict__.get(self.entry_point)
        if not callable(function):
            raise NameError(f"{DISPLAY_NAMES[self.role]} does not define a function named `{self.entry_point}`")
        self.function = function
        return self.device.name if self.device else "cpu"

    # -- CPU: one message, inputs in and sealed result out, all inside the timed window

    def call(self, message: Mapping[str, Any], fds: list[int]) -> None:
        function = self.function
        assert function is not None  # load() found it before any message was handled
        spare = _spare_result_fd(message, fds)
        self._answer(lambda: function(*_receive_args(message, fds)), spare)

    def echo(self, message: Mapping[str, Any], fds: list[int]) -> None:
        """A call with the entry point left out: the same inputs are received
        and an answer shaped like message["like"] is sealed and sent, through
        the same code as a call's."""
        spare = _spare_result_fd(message, fds)
        self._answer(lambda: _echo_answer(message, fds), spare)

    def profile(self, message: Mapping[str, Any], fds: list[int]) -> None:
        """A call under cProfile and a line timer (untimed: the supervisor makes
        it after the timed pairs); the reply also carries the module's own
        functions and its slowest lines."""
        function, source = self.function, self.source
        assert function is not None and source is not None  # load() had them before any message was handled
        spare = _spare_result_fd(message, fds)
        profiler = cProfile.Profile()
        timer = lines.LineTimer(self.module_path)
        extra: dict[str, object] = {}

        def profiled_call() -> object:
            result = profiler.runcall(timer.run, function, *_receive_args(message, fds))
            extra["profile"] = self._own_functions(profiler)
            extra["profile_lines"] = timer.rows(source.splitlines())
            extra["profile_traced_s"] = timer.total_ns / 1e9
            return result

        self._answer(profiled_call, spare, extra)

    def _own_functions(self, profiler: cProfile.Profile) -> list[FunctionRow]:
        """The module's own functions from `profiler`, most cumulative time first."""
        # {(file, line, function): (primitive calls, calls, own s, cumulative s, callers)}
        table: dict[tuple[str, int, str], tuple[int, int, float, float, object]]
        table = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # typeshed's Stats leaves out .stats
        rows: list[FunctionRow] = [
            {
                "function": name,
                "line": line,
                "calls": calls,
                "own_s": round(own, 7),
                "cumulative_s": round(cumulative, 7),
            }
            for (filename, line, name), (_, calls, own, cumulative, _) in table.items()
            if filename == self.module_path
        ]
        return sorted(rows, key=lambda row: -row["cumulative_s"])[:PROFILE_ROWS]

    def _answer(
        self, compute: Callable[[], object], spare_fd: int | None, extra: Mapping[str, object] | None = None
    ) -> None:
        result = None
        try:
            result = compute()
        except BaseException as exc:
            reply: dict[str, object]
            result_fd: int | None
            reply, result_fd = self._failure(exc), None
            _close_if_open(spare_fd)
        else:
            try:
                reply, result_fd = _sealed_result(result, spare_fd)
                reply.update(extra or {})
            except BaseException as exc:
                reply, result_fd = self._failure(exc), None
        # Freed inside the timed window, on both sides alike.
        result = None
        self._send_result(reply, result_fd)

    # -- GPU: "stage" (untimed upload), "call" (the timed window), "fetch" (untimed download)

    def stage(self, message: Mapping[str, Any], fds: list[int]) -> None:
        assert self.device is not None  # handle() stages on a GPU only
        self.staged_args = self.host_args = self.result = self.error = None
        try:
            self.host_args = _receive_args(message, fds)
            self.staged_args = self.device.to_device(self.host_args)
        except BaseException as exc:
            self.error = self.describe(exc)
        self.channel.send({"op": "staged"})

    def call_staged(self) -> None:
        """Runs the entry point and waits for the whole device, so that "done"
        closes the timed window only when all the work it queued has finished.
        A failure is reported by "fetch", like a result."""
        if self.error is None:
            # A stage without an error staged the arguments, after load() found the function.
            assert self.function is not None and self.staged_args is not None and self.device is not None
            try:
                self.result = self.function(*self.staged_args)
                self.device.synchronize()
            except BaseException as exc:
                self.error = self.describe(exc)
        self.channel.send({"op": "done"})

    def echo_staged(self) -> None:
        """A timed GPU window with the entry point left out: the device is
        synchronised and "done" sent, as call_staged does after the call."""
        assert self.device is not None  # handle() echoes this way on a GPU only
        self.device.synchronize()
        self.channel.send({"op": "done"})

    def fetch(self) -> None:
        reply: dict[str, object]
        result_fd: int | None
        if self.error is None:
            # A stage without an error staged the arguments (handle() stages on a GPU only).
            assert self.device is not None and self.staged_args is not None and self.host_args is not None
            try:
                checks = {
                    "placement": self.device.placement(self.result),
                    "modified_arguments": self.device.modified_arguments(self.staged_args, self.host_args),
                }
                reply, result_fd = _sealed_result(self.device.to_host(self.result))
                reply.update(checks)
            except BaseException as exc:
                reply, result_fd = self._failure(exc), None
        else:
            reply, result_fd = {"op": "result", "ok": False, "error": self.error}, None
        # Back to CuPy's pool, which the next call on this shape reuses (gpu.py).
        self.staged_args = self.host_args = self.result = self.error = None
        self._send_result(reply, result_fd)

    def _send_result(self, reply: dict[str, object], result_fd: int | None) -> None:
        # When this process had the message and when it answered, on the clock every
        # process shares: the supervisor's measure of the reference's time off its CPU
        # (sides.OffCpuWatch) spans these, not its own delays in sending and receiving.
        reply["window_ns"] = [self.received_ns, time.perf_counter_ns()]
        self.channel.send(reply, [result_fd] if result_fd is not None else [])
        if result_fd is not None:
            os.close(result_fd)

    def _failure(self, exc: BaseException) -> dict[str, object]:
        return {"op": "result", "ok": False, "error": self.describe(exc)}

    def describe(self, exc: BaseException) -> dict[str, str]:
        """The exception with only the frames from the module's own file. A
        reference that failed outside its own code (no frame of it at all) failed
        in the harness's part of the call: its frames are named then, by file name
        and line, for whoever reads the internal error."""
        display = DISPLAY_NAMES[self.role]
        lines = ["Traceback (most recent call last):"]
        frames = traceback.extract_tb(exc.__traceback__)
        own = [frame for frame in frames if frame.filename == self.module_path]
        if not own and self.role == "reference":
            for frame in frames:
                lines.append(f'  File "{os.path.basename(frame.filename)}", line {frame.lineno}, in {frame.name}')
        for frame in own:
            lines.append(f'  File "{display}", line {frame.lineno}, in {frame.name}')
            if frame.line:
                lines.append(f"    {frame.line.strip()}")
        try:
            summary = "".join(traceback.format_exception_only(type(exc), exc))
        except BaseException:
            summary = f"{type(exc).__name__}: (its message could not be shown)"
        lines.extend(summary.rstrip().splitlines())
        if len(lines) > MAX_TRACEBACK_LINES:
            lines = lines[:3] + ["  ..."] + lines[-(MAX_TRACEBACK_LINES - 4) :]
        text = "\n".join(lines).replace(self.module_path, display)[:MAX_TRACEBACK_CHARS]
        return {"type": type(exc).__name__[:100], "traceback": text}


def _spare_result_fd(message: Mapping[str, object], fds: list[int]) -> int | None:
    """The pre-allocated result memfd the supervisor sent last in `fds`
    (ipc.spare_result_memfd), taken out of the list; None when none came."""
    if message.get("spare_result") is True and fds:
        return fds.pop()
    return None


def _receive_args(message: Mapping[str, Any], fds: list[int]) -> tuple[object, ...]:
    """The call's arguments, decoded from the inputs memfd the supervisor sent."""
    buffer = ipc.Buffer()
    if fds:
        buffer = ipc.Buffer(ipc.map_shared(fds[0], int(message["size"]), writable=True))
    ipc.close_fds(fds)
    # The supervisor sends the arguments as a tuple (sides.InputBundle's meta).
    return cast("tuple[object, ...]", ipc.decode(message["args"], buffer))


def _echo_answer(message: Mapping[str, Any], fds: list[int]) -> object:
    """An echo's answer: the inputs are mapped and decoded as a call's are, and
    a value shaped like message["like"] is returned without computing anything.
    Its arrays are carved out of the input pages where they fit: those are
    resident (mapped with MAP_POPULATE), as a real answer's pages are once the
    computation has written them, so the echo times the transfer alone. Fresh
    np.empty pages would add a page fault per page to the copy, which real
    answers do not pay then (tiny with huge pages, large without)."""
    return _blank_like(message["like"], _resident_bytes(_receive_args(message, fds)))


def _resident_bytes(value: object) -> npt.NDArray[np.uint8] | None:
    """The bytes of the largest contiguous input array, or None."""
    if type(value) is tuple:
        found = [_resident_bytes(item) for item in value]
        candidates = [item for item in found if item is not None]
        return max(candidates, key=len, default=None)
    if type(value) is np.ndarray and value.flags.c_contiguous:
        return value.reshape(-1).view(np.uint8)
    return None


def _blank_like(meta: Mapping[str, Any], source: npt.NDArray[np.uint8] | None) -> object:
    """The value `meta` (an ipc.encode description) describes, with nothing
    computed: arrays are views of `source` where it is large enough, else np.empty."""
    kind = meta["t"]
    if kind == "array":
        shape, dtype = tuple(meta["shape"]), np.dtype(meta["dtype"])
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if source is not None and nbytes and source.size >= nbytes:
            return source[:nbytes].view(dtype).reshape(shape)
        return np.empty(shape, dtype=dtype)
    if kind == "tuple":
        return tuple(_blank_like(item, source) for item in meta["items"])
    return ipc.decode(meta, ipc.Buffer())


def _sealed_result(result: object, spare_fd: int | None = None) -> tuple[dict[str, object], int | None]:
    """The "result" reply and the sealed memfd holding its arrays (None when it
    has none), written into `spare_fd` when the supervisor sent one. Takes
    ownership of `spare_fd`: it is closed or returned, never left open."""
    arena = ipc.Arena()
    try:
        try:
            value = ipc.encode(result, arena)
        except ipc.Unsupported as exc:
            arena = ipc.Arena()
            value = {"t": "unsupported", "what": str(exc)[:300]}
    except BaseException:
        _close_if_open(spare_fd)
        raise
    result_fd = arena.write_memfd("hotpath-result", seal=True, spare_fd=spare_fd)
    return {"op": "result", "ok": True, "value": value, "size": arena.size}, result_fd


def _close_if_open(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def _limit_resources(memory_limit_bytes: int, target: str) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if target == "cpu" and memory_limit_bytes > 0:
        # A backstop for allocations faster than the supervisor's sampler; the
        # sampler enforces the real limit on resident memory.
        data = 2 * memory_limit_bytes + (512 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_DATA, (data, data))
        except (ValueError, OSError):
            pass


def main(argv: list[str]) -> None:
    role, sock_fd, module_path, entry_point, target, memory_limit, allowed_json, cpus_json = argv[1:9]
    procs.die_with_parent()
    cpus = json.loads(cpus_json)
    if cpus:
        # Pinned before anything of the module runs; the filter then keeps every thread there.
        os.sched_setaffinity(0, cpus)
    procs.set_dumpable(role != "reference")
    _limit_resources(int(memory_limit), target)
    channel = ipc.Channel(socket.socket(fileno=int(sock_fd)))
    Runner(
        role, channel, module_path, entry_point, target, json.loads(allowed_json), confine=syscalls.confine_runner
    ).serve()


if __name__ == "__main__":
    main(sys.argv)
