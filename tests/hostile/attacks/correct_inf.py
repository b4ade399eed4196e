"""Return +inf everywhere."""
import numpy as np


def transform(x):
    return np.full_like(x, np.inf)
