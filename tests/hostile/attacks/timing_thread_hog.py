"""A background thread that spins forever in the submission's process, to
steal CPU from the reference while it is being timed. The reference must be
timed with the submission's process unable to run (or on its own CPU)."""
import threading

import numpy as np


def _spin():
    count = 0
    while True:
        count += 1


threading.Thread(target=_spin, daemon=True).start()


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
