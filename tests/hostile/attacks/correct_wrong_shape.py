"""Right values, wrong shape: a column vector (broadcasting would hide it)."""
import numpy as np


def transform(x):
    return (np.sqrt(x * x + 1.0) * 2.0 - x).reshape(-1, 1)
