import numpy as np


def transform(x):
    """Return (2 * x + 1) ** 2 for a 1-D float64 array `x`, as a new float64 array.

    `x` must not be modified. The loop below is the reference: correct but slow,
    because every element goes through the Python interpreter. Replace it.
    """
    out = np.empty_like(x)
    for i in range(len(x)):
        value = x[i]
        out[i] = (value * 2.0 + 1.0) ** 2
    return out
