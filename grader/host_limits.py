"""The grading host's measured limits: memory bandwidth and a one-core compute peak
(grader/hostbench.py), measured once per worker start on the CPU the code under
test gets, and kept in the shared cache under the host's name with its hardware
identity, so every report graded here can name the machine and its roofs.

`manage.py measure_host` measures by hand; `current()` measures on first use
where no worker has yet (`manage.py grade` on a fresh machine).
"""
import fcntl
import json
import logging
import os
import platform
import socket
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from .sandbox import get_backend
from .sandbox.base import Limits
from .sandbox.cpuslots import claim_runner_cpu

logger = logging.getLogger(__name__)

KEY = "grader:host-limits:{}"
BENCH = Path(__file__).resolve().with_name("hostbench.py")
#: One CPU (so one BLAS thread, as a runner has; the sandbox sets the memory settings),
#: room for the three 128 MiB arrays, and time for a loaded machine.
BENCH_LIMITS = Limits(wall_time_s=120, cpu_time_s=120, memory_bytes=1024**3, processes=8, cpus=1.0)
#: Workers on one machine measure one at a time: two at once share its memory bus.
LOCK_NAME = "hotpath-host-limits.lock"


TRANSPARENT_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/enabled")
SHMEM_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/shmem_enabled")
#: shmem modes under which a memfd gets huge pages without asking (scripts/tune_grading_host.sh sets within_size).
SHMEM_HUGE_PAGES_GIVEN = ("within_size", "always", "force")


class MeasurementFailed(RuntimeError):
    pass


def hardware_identity():
    """What names this machine in a report: host, CPU model, CPU count, kernel,
    and its transparent huge pages modes. Code is graded with NumPy's defaults,
    which ask for huge pages on large arrays; whether the host grants them
    changes memory-bound times up to twofold. The inputs and answers cross the
    sandbox in memfds, which are shared memory and get huge pages only under the
    shmem mode (scripts/tune_grading_host.sh sets it). A report names both."""
    return {
        "host": socket.gethostname(),
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "kernel": platform.release(),
        "transparent_huge_pages": transparent_huge_pages(),
        "shmem_huge_pages": transparent_huge_pages(SHMEM_HUGE_PAGES),
    }


def transparent_huge_pages(path=TRANSPARENT_HUGE_PAGES):
    """A transparent huge pages mode, the bracketed choice in `path` (for
    `enabled`: "always", "madvise" or "never"; for `shmem_enabled` also
    "within_size", "advise", "deny" or "force"); "unknown" where the kernel
    does not say."""
    try:
        text = path.read_text()
    except OSError:
        return "unknown"
    start, end = text.find("["), text.find("]")
    return text[start + 1:end] if 0 <= start < end else "unknown"


def cpu_model():
    """The CPU's model name, as /proc/cpuinfo gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure():
    """Run the benchmark in the sandbox that grades code (the configured backend,
    so the same interpreter and NumPy; the Docker workers' own image has no NumPy),
    on a claimed runner CPU, and return its figures with the hardware identity and
    when they were measured. MeasurementFailed otherwise."""
    with _one_at_a_time(), claim_runner_cpu() as cpu, get_backend(settings.SANDBOX_BACKEND)(limits=BENCH_LIMITS) as sandbox:
        sandbox.write_file("hostbench.py", BENCH.read_text(encoding="utf-8"))
        done = sandbox.run(["python3", "-I", f"{sandbox.JOB_MOUNT}/hostbench.py", "-" if cpu is None else str(cpu)])
    if done.timed_out:
        raise MeasurementFailed(f"the host benchmark took more than {BENCH_LIMITS.wall_time_s:g} s")
    if done.exit_code != 0:
        raise MeasurementFailed(f"the host benchmark failed: {done.stderr.decode('utf-8', 'replace').strip()[-500:]}")
    figures = json.loads(done.stdout)
    return {**hardware_identity(), **figures, "measured_at": timezone.now().isoformat(), "command": "python manage.py measure_host"}


@contextmanager
def _one_at_a_time():
    with open(os.path.join(tempfile.gettempdir(), LOCK_NAME), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def measure_and_store():
    limits = measure()
    cache.set(KEY.format(limits["host"]), limits, timeout=None)
    return limits


def stored():
    """This host's last measurement, or None."""
    return cache.get(KEY.format(socket.gethostname()))


def current():
    """This host's limits, measured now if no worker here has yet; None if the
    measurement fails (the report then has no roofline, and the log says why)."""
    limits = stored()
    if limits is not None:
        return limits
    try:
        return measure_and_store()
    except (MeasurementFailed, OSError, ValueError) as exc:
        logger.error("could not measure this host's limits: %s", exc)
        return None


def measure_at_worker_start():
    """The worker_ready hook: a fresh measurement each time a worker starts; a
    failure is logged and never stops the worker."""
    try:
        limits = measure_and_store()
    except (MeasurementFailed, OSError, ValueError) as exc:
        logger.error("could not measure this host's limits: %s", exc)
        return None
    logger.info(
        "host limits on %s (%s), CPU %s: %.1f GB/s memory bandwidth, %.1f GFLOP/s on one core",
        limits["host"], limits["cpu_model"], limits["cpu"], limits["bandwidth_gbs"], limits["compute_gflops"],
    )
    if limits.get("shmem_huge_pages") not in SHMEM_HUGE_PAGES_GIVEN:
        logger.warning(
            "this grading host gives shared memory no huge pages (shmem_enabled: %s): the sandbox's inputs and answers "
            "then cost the harness about twice its own work, and memory-bound answers read their inputs more slowly "
            "than at a learner's desk. Run scripts/tune_grading_host.sh as root (docs/architecture.md).",
            limits.get("shmem_huge_pages"),
        )
    return limits
