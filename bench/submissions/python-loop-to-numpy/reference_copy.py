# Calibration: the reference, character for character. Must read 1.00x.
import numpy as np


def transform(x):
    """(2x + 1)**2, one element at a time: the interpreter does all the work."""
    out = np.empty_like(x)
    for i in range(len(x)):
        value = x[i]
        out[i] = (value * 2.0 + 1.0) ** 2
    return out
