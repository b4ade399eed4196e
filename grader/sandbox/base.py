"""The sandbox interface every backend implements.

A backend is a context manager. Entering it creates a fresh, host-owned job
directory; `write_file` fills it (the host only ever writes into that new
directory, and never follows a path the submission could have planted: the
sandbox sees the job directory read-only at /job and gets a size-capped tmpfs
as its only writable place). `run` executes one command inside the sandbox
under the limits and returns a SandboxResult. Leaving the context kills every
process the run left behind and removes everything it created, whatever happened.
"""

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal, Self

logger = logging.getLogger(__name__)

#: Part of every backend's sandbox environment: memory behaviour that is the same for both
#: runners and from one grading to the next.
#: - glibc raises its mmap threshold after a large block is freed, so a submission that
#:   allocates and frees big arrays at import would then serve every later temporary from a
#:   warm heap while the reference pays fresh mmaps and page faults: a speedup it did not
#:   earn. A set threshold stays put (tests/hostile: timing_precompute_at_import).
#: NumPy keeps its defaults, transparent huge pages on large arrays included: turning them
#: off steadied memory-bound times a little but halved the vectorised answers' speed
#: against what a learner measures at home or production code gets (docs/benchmarks.md,
#: "The headline against a plain measurement"). Repeatability
#: comes from the stopping rule's extra pairs where a host is unsteady instead, and every
#: report names the host's huge pages modes (host_limits.hardware_identity): the one for
#: ordinary memory, and the one for shared memory, which the inputs and answers cross the
#: sandbox in (memfds; scripts/tune_grading_host.sh gives them huge pages, as NumPy's own
#: large arrays have, and the harness's copies and frees then cost a third as much).
SANDBOX_MEMORY_ENV = {"MALLOC_MMAP_THRESHOLD_": "131072"}

#: Worker threads of OpenMP runtimes (Numba's default threading layer, OpenBLAS built
#: with it) that sleep as soon as a parallel region ends. By default libgomp's threads spin for
#: a while first: that CPU time falls between calls, where it counts as the code's
#: background work, and on the runners' shared CPUs it would take time from the other
#: side's call. Code graded on one CPU starts no such threads, so this changes nothing there.
SANDBOX_THREAD_ENV = {"OMP_WAIT_POLICY": "PASSIVE"}


#: CPUs (a fraction of one) the sandbox gets on top of Limits.cpus, for the trusted
#: supervisor's own bookkeeping (memory sampling during calls, inputs, comparisons).
#: Without it a busy runner and the supervisor together overrun the quota and CFS
#: throttling stalls land inside timed calls. Code under test
#: still gets Limits.cpus CPUs (one unless the exercise declares more): the harness
#: pins both runners to that many CPUs of the sandbox and keeps its own threads off
#: them where others are left (grader/harness/supervisor.py, _pin_cpus).
SUPERVISOR_CPU_SHARE = 0.5


#: Runners the harness starts in one sandbox, the reference and the submission, each held
#: by the harness's own sampler to the job's memory limit (grader/harness/sides.py).
HARNESS_RUNNERS = 2

#: Bytes the sandbox's memory cap gives the trusted supervisor on top of the runners' limits:
#: its interpreter and NumPy, its comparison blocks, the answers it holds between calls, and
#: what a runner can allocate between two of the sampler's reads before it is stopped. The
#: inputs' memfds need no share of their own: both runners map them, so both limits count them.
HARNESS_MEMORY_BYTES = 256 * 1024**2


def harness_memory_cap(runner_limit_bytes: int, disk_bytes: int) -> int:
    """The hard memory cap (bytes, RAM with no swap) for a sandbox that runs the harness
    with runners limited to `runner_limit_bytes` each and a tmpfs of `disk_bytes`:
    HARNESS_RUNNERS runner limits, the tmpfs (its pages are charged as shared memory, which
    no runner's limit counts) and HARNESS_MEMORY_BYTES. Invariant: a submission at its own
    limit with its tmpfs full leaves the reference its whole limit and the supervisor its
    allowance, so it can neither get them OOM-killed nor push their allocations into the
    kernel's reclaim; the submission's limit is the harness's to enforce (MEMORY_LIMIT)."""
    return HARNESS_RUNNERS * int(runner_limit_bytes) + int(disk_bytes) + HARNESS_MEMORY_BYTES


@dataclass(frozen=True)
class Limits:
    """What one sandbox run may use. `memory_bytes` is the kernel's hard cap on the whole
    sandbox (every process in it, its tmpfs included; no swap): for a grading,
    harness_memory_cap() of the job's memory limit, which the harness applies per runner."""

    wall_time_s: float = 120.0
    cpu_time_s: float = 120.0
    memory_bytes: int = 2 * 1024**3
    processes: int = 64
    output_bytes: int = 1024 * 1024  # stdout and stderr, each
    disk_bytes: int = 64 * 1024**2  # the writable tmpfs
    cpus: float = 1.0

    @property
    def cpu_quota(self) -> float:
        """CPUs the whole sandbox may use: the code's plus the supervisor's share."""
        return self.cpus + SUPERVISOR_CPU_SHARE


@dataclass
class SandboxResult:
    exit_code: int | None  # None when killed by a signal
    signal: int | None = None
    timed_out: bool = False  # wall or CPU limit reached; the sandbox killed it
    oom_killed: bool = False  # memory limit reached
    output_exceeded: bool = False  # stdout or stderr went past Limits.output_bytes
    stdout: bytes = b""
    stderr: bytes = b""
    wall_s: float = 0.0
    peak_memory_bytes: int | None = None  # whole sandbox, from the kernel, when the backend can tell
    details: dict[str, object] = field(
        default_factory=dict
    )  # backend-specific facts for logs (never shown to learners)


class Sandbox:
    """Base class: subclasses implement _setup, _run and _cleanup."""

    #: Where the job directory appears inside the sandbox.
    JOB_MOUNT = "/job"

    def __init__(self, limits: Limits | None = None, target: str = "cpu") -> None:
        self.limits = limits or Limits()
        self.target = target

    def __enter__(self) -> Self:
        self._setup()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> Literal[False]:
        self._cleanup()
        return False

    def write_file(self, relative_path: str, content: str | bytes) -> None:
        raise NotImplementedError

    def run(
        self, command: Sequence[str], stdin: bytes = b"", on_stdout: Callable[[bytes], object] | None = None
    ) -> SandboxResult:
        """Run `command` (a list of strings, paths as seen inside the sandbox).
        `on_stdout`, when given, is called with each chunk of stdout as it
        arrives (the whole output is in the result as well)."""
        raise NotImplementedError

    def _setup(self) -> None:
        raise NotImplementedError

    def _cleanup(self) -> None:
        raise NotImplementedError


def pass_on_stdout(callback: Callable[[bytes], object], chunk: bytes) -> None:
    """Hands a stdout chunk to a run's on_stdout callback; a failing callback (a
    progress store that is down, say) is logged and never stops the run."""
    try:
        callback(chunk)
    except Exception:
        logger.exception("the sandbox's stdout callback failed")
