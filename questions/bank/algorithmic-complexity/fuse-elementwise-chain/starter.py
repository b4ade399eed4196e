import numpy as np


def transform(x):
    """Return (2 * x + 1) ** 2 for a 1-D float64 array `x`, as a new float64 array.

    `x` must not be modified. This is the reference: every step allocates a new
    full-size array and keeps it alive, so peak memory is three times the output.
    Make it need only the output array.
    """
    a = x * 2.0
    b = a + 1.0
    c = b * b
    return c
