"""The grading host's measured limits: memory bandwidth and a one-core compute peak
(grader/hostbench.py), measured at each worker start on the CPU the code under test
gets, and kept with its hardware identity in a file on the host (STATE_DIR) as the
best each figure has shown this week, which every worker there reads: every report
graded here names the machine and holds the code to the same roofs. A GPU
host's device is measured the same way, in the GPU sandbox, when its GPU worker
starts (`target="gpu"`): device memory bandwidth and a float32 compute peak.

`manage.py measure_host [--gpu]` measures by hand; `current()` measures on first
use where no worker has yet (`manage.py grade` on a fresh machine).
"""

import fcntl
import json
import logging
import os
import platform
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypedDict

from .errors import PlatformError
from .harness import hugepages
from .sandbox import resolve_backend
from .sandbox.base import Limits, Sandbox, SandboxResult
from .sandbox.cpuslots import claim_runner_cpu

logger = logging.getLogger(__name__)

#: Where this host's measurements are kept: one file per target, shared by the workers here
#: (compose gives them one TMPDIR).
STATE_DIR = Path(tempfile.gettempdir())
FILES = {"cpu": "hotpath-host-limits.json", "gpu": "hotpath-gpu-limits.json"}
BENCH = Path(__file__).resolve().with_name("hostbench.py")
#: One CPU (so one BLAS thread, as a runner has; the sandbox sets the memory settings),
#: room for the three 128 MiB arrays, and time for a loaded machine. On a GPU the
#: arrays live on the device; the host side needs room for CUDA and CuPy.
BENCH_LIMITS = {
    "cpu": Limits(wall_time_s=120, cpu_time_s=120, memory_bytes=1024**3, processes=8, cpus=1.0),
    "gpu": Limits(wall_time_s=180, cpu_time_s=180, memory_bytes=4 * 1024**3, processes=16, cpus=1.0),
}
#: Workers on one machine measure one at a time: two at once share its memory bus.
LOCK_NAME = "hotpath-host-limits.lock"
#: The figures of which a host keeps its best, and for how long a kept best stands (a week: long
#: enough to have seen the host idle, short enough that a changed machine is re-learnt).
BEST_OF_FIGURES = ("bandwidth_gbs", "copy_gbs", "triad_gbs", "fresh_pass_gbs", "compute_gflops")
KEEP_BEST_FOR_S = 7 * 24 * 3600


TRANSPARENT_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/enabled")
SHMEM_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/shmem_enabled")
#: shmem modes under which a memfd gets huge pages without asking (scripts/tune_grading_host.sh sets within_size).
SHMEM_HUGE_PAGES_GIVEN = ("within_size", "always", "force")


#: A host's limits as measured and kept (the JSON in STATE_DIR): HardwareIdentity's keys,
#: hostbench's figures (they differ between a CPU and a GPU), measured_at, command, and,
#: once kept, runs and first_measured_at. Read back from a file, so typed as JSON.
HostLimits = dict[str, Any]


class HardwareIdentity(TypedDict):
    host: str
    cpu_model: str
    logical_cpus: int | None
    kernel: str
    transparent_huge_pages: str
    shmem_huge_pages: str
    inputs_in_huge_pages: bool


class MeasurementFailed(RuntimeError):
    pass


def hardware_identity() -> HardwareIdentity:
    """What names this machine in a report: host, CPU model, CPU count, kernel,
    and its transparent huge pages modes. Code is graded with NumPy's defaults,
    which ask for huge pages on large arrays; whether the host grants them
    changes memory-bound times up to twofold. The inputs and answers cross the
    sandbox in memfds, which are shared memory: the harness collapses them into
    huge pages where the kernel can (hugepages), else only the shmem mode gives
    them (scripts/tune_grading_host.sh sets it). A report names all three."""
    shmem_mode = transparent_huge_pages(SHMEM_HUGE_PAGES)
    return {
        "host": socket.gethostname(),
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "kernel": platform.release(),
        "transparent_huge_pages": transparent_huge_pages(),
        "shmem_huge_pages": shmem_mode,
        "inputs_in_huge_pages": shmem_mode in SHMEM_HUGE_PAGES_GIVEN or hugepages.shared_memory_collapses(),
    }


def untuned_warnings(limits: HostLimits) -> list[str]:
    """One line for each host setting that makes the figures differ from a
    learner's desk, saying what it does to them (empty on a host that needs none)."""
    warnings = []
    if limits.get("transparent_huge_pages") == "never":
        warnings.append(
            "this grading host gives ordinary memory no huge pages (transparent_hugepage/enabled: never), "
            "unlike most desks: memory-bound answers read lower speedups here"
        )
    if limits.get("inputs_in_huge_pages") is False:
        warnings.append(
            "this kernel cannot give the sandbox's shared memory huge pages (MADV_COLLAPSE needs Linux 6.1 and "
            f"shmem_enabled other than deny; it is {limits.get('shmem_huge_pages')}): inputs are read through 4 KiB "
            "pages, so memory-bound answers read lower speedups than at a learner's desk; "
            "scripts/tune_grading_host.sh (as root) sets shmem_enabled to within_size"
        )
    return warnings


def transparent_huge_pages(path: Path = TRANSPARENT_HUGE_PAGES) -> str:
    """A transparent huge pages mode, the bracketed choice in `path` (for
    `enabled`: "always", "madvise" or "never"; for `shmem_enabled` also
    "within_size", "advise", "deny" or "force"); "unknown" where the kernel
    does not say."""
    try:
        text = path.read_text()
    except OSError:
        return "unknown"
    start, end = text.find("["), text.find("]")
    return text[start + 1 : end] if 0 <= start < end else "unknown"


def cpu_model() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure(target: str = "cpu", backend: str | type[Sandbox] | None = None) -> HostLimits:
    """Run the benchmark in the sandbox that grades code for `target` (the
    configured backend unless `backend` names another, as grading.grade takes
    it: so the same interpreter, NumPy and CuPy; the Docker workers' own image
    has neither), on a claimed runner CPU, and return its figures with the
    hardware identity and when they were measured. MeasurementFailed otherwise."""
    limits = BENCH_LIMITS[target]
    try:
        done = _run_bench(target, limits, resolve_backend(backend))
    except PlatformError as exc:  # no sandbox for this target here (bwrap runs CPU jobs only)
        raise MeasurementFailed(f"the {target} benchmark could not start: {exc}") from None
    if done.timed_out:
        raise MeasurementFailed(f"the {target} benchmark took more than {limits.wall_time_s:g} s")
    if done.exit_code != 0:
        raise MeasurementFailed(
            f"the {target} benchmark failed: {done.stderr.decode('utf-8', 'replace').strip()[-500:]}"
        )
    figures: dict[str, Any] = json.loads(done.stdout)
    command = "python manage.py measure_host" + (" --gpu" if target == "gpu" else "")
    return {**hardware_identity(), **figures, "measured_at": datetime.now(timezone.utc).isoformat(), "command": command}


def _run_bench(target: str, limits: Limits, backend_class: type[Sandbox]) -> SandboxResult:
    with claim_runner_cpu() as cpu, backend_class(limits=limits, target=target) as sandbox:
        sandbox.write_file("hostbench.py", BENCH.read_text(encoding="utf-8"))
        argument = "gpu" if target == "gpu" else "-" if cpu is None else str(cpu)
        return sandbox.run(["python3", "-I", f"{sandbox.JOB_MOUNT}/hostbench.py", argument])


@contextmanager
def _one_at_a_time() -> Iterator[None]:
    with open(STATE_DIR / LOCK_NAME, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def measure_and_store(target: str = "cpu", backend: str | type[Sandbox] | None = None) -> HostLimits:
    """Measure once more and keep, per figure, the best this hardware has shown within
    KEEP_BEST_FOR_S (a roof is what the machine can do: a run slowed by other work
    reads low, never high, as STREAM reports its best). Every worker on the host reads
    the kept figures, so all of them hold a report to the same roofs. One at a time
    on a host: two benchmarks at once would share its memory bus."""
    with _one_at_a_time():
        limits = _with_best_of(measure(target, backend), stored(target))
        path = STATE_DIR / FILES[target]
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(limits), encoding="utf-8")
        partial.replace(path)  # atomic: a reader sees the old measurement or the new one
    return limits


def _with_best_of(new: HostLimits, kept: HostLimits | None) -> HostLimits:
    """`new`, its figures raised to `kept`'s where `kept` is better and recent enough;
    `runs` counts the measurements the figures are the best of."""
    if kept is None or _age_s(kept) > KEEP_BEST_FOR_S:
        return {**new, "runs": 1}
    best = {key: max(new[key], kept[key]) for key in BEST_OF_FIGURES if key in new and key in kept}
    return {
        **new,
        **best,
        "runs": kept.get("runs", 1) + 1,
        "first_measured_at": kept.get("first_measured_at", kept["measured_at"]),
    }


def _age_s(limits: HostLimits) -> float:
    try:
        measured_at = datetime.fromisoformat(limits["measured_at"])
    except (KeyError, TypeError, ValueError):
        return float("inf")
    return (datetime.now(timezone.utc) - measured_at).total_seconds()


def stored(target: str = "cpu") -> HostLimits | None:
    """This host's kept limits for `target`, or None (none yet, unreadable, or taken on
    other hardware: a changed kernel, another machine's folder). The host's name is not
    compared: the workers of one machine share the folder from containers of their own
    names (docker-compose.yml's TMPDIR)."""
    try:
        limits: HostLimits = json.loads((STATE_DIR / FILES[target]).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    identity = hardware_identity()
    if any(limits.get(key) != identity[key] for key in ("cpu_model", "logical_cpus", "kernel")):
        return None
    return limits


def current(target: str = "cpu") -> HostLimits | None:
    """This host's limits, measured now if no worker here has yet; None if the
    measurement fails (the report then has no roofline, and the log says why)."""
    limits = stored(target)
    if limits is not None:
        return limits
    try:
        return measure_and_store(target)
    except (MeasurementFailed, OSError, ValueError) as exc:
        logger.error("could not measure this host's %s limits: %s", target, exc)
        return None


def measure_at_worker_start(target: str = "cpu") -> HostLimits | None:
    """A measurement each time a worker starts (the worker_ready hook for the CPU,
    manage.py gpu_worker for the GPU), folded into the host's best; a failure is
    logged and never stops the worker."""
    try:
        limits = measure_and_store(target)
    except (MeasurementFailed, OSError, ValueError) as exc:
        logger.error("could not measure this host's %s limits: %s", target, exc)
        return None
    if target == "gpu":
        logger.info(
            "GPU limits on %s (%s): %.1f GB/s device memory bandwidth, %.1f GFLOP/s in float32",
            limits["host"],
            limits["device"],
            limits["bandwidth_gbs"],
            limits["compute_gflops"],
        )
        return limits
    logger.info(
        "host limits on %s (%s), CPU %s: %.1f GB/s memory bandwidth, %.1f GFLOP/s on one core",
        limits["host"],
        limits["cpu_model"],
        limits["cpu"],
        limits["bandwidth_gbs"],
        limits["compute_gflops"],
    )
    for warning in untuned_warnings(limits):
        logger.warning("%s", warning)
    return limits
