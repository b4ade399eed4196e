"""Return the right values truncated to int64."""
import numpy as np


def transform(x):
    return (np.sqrt(x * x + 1.0) * 2.0 - x).astype(np.int64)
