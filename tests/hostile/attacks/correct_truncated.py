"""Right values but one element short (skip the last one to save time)."""
import numpy as np


def transform(x):
    return np.sqrt(x[:-1] * x[:-1] + 1.0) * 2.0 - x[:-1]
