"""Which CPUs a grading's runners get, so concurrent gradings on one machine
do not share them.

Inside the sandbox the harness pins both runners to the job's CPUs: one, or
as many as the exercise declares (see harness/supervisor.py, _pin_cpus).
Left to itself it would take the CPUs its supervisor happened to start on,
and two workers' sandboxes could land on the same ones and halve each
other's speed. So each grading first claims CPU slots on this machine: an
exclusive, non-blocking flock on one lock file per CPU, held for the whole
run and released by the kernel even if the worker dies. Workers in different
containers share slots only if they share the lock directory; for CPUs it
could not claim the harness falls back to its own choice.
"""

import fcntl
import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

logger = logging.getLogger(__name__)

LOCK_PREFIX = "hotpath-cpu-"


@contextmanager
def claim_runner_cpu(directory: str | None = None) -> Iterator[int | None]:
    """Yields a CPU number this process holds for the block, or None when every
    CPU it may use is claimed already (or the lock directory is unusable)."""
    with claim_runner_cpus(1, directory) as cpus:
        yield cpus[0] if cpus else None


@contextmanager
def claim_runner_cpus(count: int, directory: str | None = None) -> Iterator[list[int]]:
    """Yields a list of up to `count` CPU numbers this process holds for the
    block: fewer (none at all) when the others are claimed already or the
    lock directory is unusable."""
    directory = directory or tempfile.gettempdir()
    allowed = sorted(os.sched_getaffinity(0))
    start = os.getpid() % len(allowed)  # workers try different CPUs first
    held: dict[int, int] = {}  # CPU: the fd holding its lock
    try:
        for cpu in allowed[start:] + allowed[:start]:
            if len(held) == count:
                break
            handle = _locked(os.path.join(directory, f"{LOCK_PREFIX}{cpu}.lock"))
            if handle is not None:
                held[cpu] = handle
        yield list(held)
    finally:
        for handle in held.values():
            os.close(handle)  # releases the lock


def _locked(path: str) -> int | None:
    """An fd holding an exclusive lock on `path`, or None when someone else
    holds it or the path is not a plain file we may create (a planted link)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        logger.warning("cannot use CPU slot lock %s: %s", path, exc)
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd
