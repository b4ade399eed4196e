"""Flood stderr with hundreds of megabytes (straight to the descriptor)."""
import os

import numpy as np

_CHUNK = b"E" * 65536


def transform(x):
    for _ in range(5_000):
        os.write(2, _CHUNK)
    return np.sqrt(x * x + 1.0) * 2.0 - x
