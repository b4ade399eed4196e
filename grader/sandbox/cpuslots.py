"""Which CPU a grading's runners get, so concurrent gradings on one machine
do not share one.

Inside the sandbox the harness pins both runners to a single CPU (see
harness/supervisor.py, _pin_cpus). Left to itself it would take the CPU its
supervisor happened to start on, and two workers' sandboxes could land on the
same one and halve each other's speed. So each grading first claims a CPU
slot on this machine: an exclusive, non-blocking flock on one lock file per
CPU, held for the whole run and released by the kernel even if the worker
dies. Workers in different containers share slots only if they share the
lock directory; without a free slot the harness falls back to its own choice.
"""

import fcntl
import logging
import os
import tempfile
from contextlib import contextmanager

logger = logging.getLogger(__name__)

LOCK_PREFIX = "hotpath-cpu-"


@contextmanager
def claim_runner_cpu(directory=None):
    """Yields a CPU number this process holds for the block, or None when every
    CPU it may use is claimed already (or the lock directory is unusable)."""
    directory = directory or tempfile.gettempdir()
    allowed = sorted(os.sched_getaffinity(0))
    start = os.getpid() % len(allowed)  # workers try different CPUs first
    for cpu in allowed[start:] + allowed[:start]:
        handle = _locked(os.path.join(directory, f"{LOCK_PREFIX}{cpu}.lock"))
        if handle is None:
            continue
        try:
            yield cpu
        finally:
            os.close(handle)  # releases the lock
        return
    yield None


def _locked(path):
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
