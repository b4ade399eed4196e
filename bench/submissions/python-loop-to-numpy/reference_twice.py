# Calibration: exactly twice the reference's work (its loop, run two times). Must read 0.50x.
import numpy as np


def reference_loop(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        value = x[i]
        out[i] = (value * 2.0 + 1.0) ** 2
    return out


def transform(x):
    reference_loop(x)
    return reference_loop(x)
