"""Do the memory-hungry unfused chain in a forked child and hand back the
result through shared memory, so the submission's own process never holds
the temporaries. Memory must be measured for everything the submission
starts (the sandbox's cgroup), not one process's RSS."""
import mmap
import os

import numpy as np


def transform(x):
    shared = mmap.mmap(-1, max(1, x.nbytes))
    pid = os.fork()
    if pid == 0:
        out = np.frombuffer(shared, dtype=np.float64, count=x.size)
        out[:] = np.sqrt(x * x + 1.0) * 2.0 - x  # four full-size temporaries live here only
        os._exit(0)
    os.waitpid(pid, 0)
    return np.frombuffer(shared, dtype=np.float64, count=x.size).copy()
