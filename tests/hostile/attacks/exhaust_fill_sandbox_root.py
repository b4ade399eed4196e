"""Fill the sandbox's root filesystem (not /tmp, so not under the tmpfs size
cap) with up to 2 GiB, 4x the memory limit, in files small enough to pass
RLIMIT_FSIZE, then answer. Without a memory cgroup only host RAM would stop
it; with one it is charged to the run as memory."""
import numpy as np

_CHUNK = b"\xee" * (1024 * 1024)
_written = 0
for directory in ("", "/dev/shm", "/etc"):
    for index in range(256):
        try:
            with open(f"{directory}/fill-{index}", "wb") as handle:
                for _ in range(8):
                    handle.write(_CHUNK)
                    _written += len(_CHUNK)
        except OSError:
            break
        if _written >= 2 * 1024**3:
            break


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
