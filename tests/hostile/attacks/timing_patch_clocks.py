"""Patch every clock the submission's process can reach so its calls look
instant: time.perf_counter/time/monotonic (and their _ns forms), process_time.
Times must come from the supervisor's clock, in another process."""
import time

import numpy as np

_frozen = time.perf_counter()
for name in ("perf_counter", "time", "monotonic", "process_time", "thread_time"):
    setattr(time, name, lambda: _frozen)
for name in ("perf_counter_ns", "time_ns", "monotonic_ns", "process_time_ns", "thread_time_ns"):
    setattr(time, name, lambda: int(_frozen * 1e9))


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
