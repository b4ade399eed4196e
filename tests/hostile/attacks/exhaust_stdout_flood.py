"""Flood stdout with hundreds of megabytes."""
import sys

import numpy as np

_LINE = "flood " * 1000 + "\n"


def transform(x):
    for _ in range(50_000):
        sys.stdout.write(_LINE)
    return np.sqrt(x * x + 1.0) * 2.0 - x
