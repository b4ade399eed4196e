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
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.core.cache import cache
from django.utils import timezone

from .sandbox.base import SANDBOX_MEMORY_ENV
from .sandbox.cpuslots import claim_runner_cpu

logger = logging.getLogger(__name__)

KEY = "grader:host-limits:{}"
BENCH = Path(__file__).resolve().with_name("hostbench.py")
BENCH_TIMEOUT_S = 120
#: One BLAS thread, as a runner pinned to one CPU has; the sandbox's memory settings.
BENCH_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", **SANDBOX_MEMORY_ENV}
#: Workers on one machine measure one at a time: two at once share its memory bus.
LOCK_NAME = "hotpath-host-limits.lock"


class MeasurementFailed(RuntimeError):
    pass


def hardware_identity():
    """What names this machine in a report: host, CPU model, CPU count, kernel."""
    return {
        "host": socket.gethostname(),
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "kernel": platform.release(),
    }


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
    """Run the benchmark on a claimed runner CPU and return its figures with the
    hardware identity and when they were measured. MeasurementFailed otherwise."""
    with _one_at_a_time(), claim_runner_cpu() as cpu:
        command = [sys.executable, str(BENCH), "-" if cpu is None else str(cpu)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=BENCH_TIMEOUT_S, env={**os.environ, **BENCH_ENV}
            )
        except subprocess.TimeoutExpired:
            raise MeasurementFailed(f"the host benchmark took more than {BENCH_TIMEOUT_S} s") from None
    if done.returncode != 0:
        raise MeasurementFailed(f"the host benchmark failed: {done.stderr.strip()[-500:]}")
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
    return limits
