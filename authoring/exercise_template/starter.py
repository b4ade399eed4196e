import numpy as np


def transform(x):
    """Return (2 * x + 1) ** 2 for a 1-D float64 array `x`, as a new array, faster than a Python loop."""
    raise NotImplementedError
