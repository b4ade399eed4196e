import numpy as np


def transform(x):
    """The reference: obviously correct and deliberately slow; candidates must beat it.
    Return (2 * x + 1) ** 2 for a 1-D float64 array, as a new array."""
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = (2.0 * x[i] + 1.0) ** 2
    return out
