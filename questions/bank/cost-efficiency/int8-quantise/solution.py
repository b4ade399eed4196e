import numpy as np
from numba import njit


@njit(cache=False)
def _max_abs(x):
    largest = 0.0
    for i in range(x.shape[0]):
        value = abs(x[i])
        if value > largest:
            largest = value
    return largest


@njit(cache=False)
def _quantise(x, inverse_scale, out):
    for i in range(x.shape[0]):
        level = np.rint(x[i] * inverse_scale)
        # |x| / scale <= 127 by construction; the clamp only guards rounding at the edge.
        out[i] = np.int8(min(127.0, max(-127.0, level)))


def quantize_int8(x):
    # Two passes over float32 data and one int8 output: no float64 copy, no temporaries.
    max_abs = float(_max_abs(x))
    scale = max_abs / 127.0 if max_abs > 0.0 else 1.0
    q = np.empty(x.shape[0], dtype=np.int8)
    _quantise(x, 1.0 / scale, q)
    return q, scale
