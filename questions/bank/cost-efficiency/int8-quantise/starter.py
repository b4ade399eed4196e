import numpy as np


def quantize_int8(x):
    """Quantise the 1-D float32 array `x` to int8 with one symmetric scale.

    Return (q, scale): q a new int8 array in [-127, 127], scale = max|x| / 127
    (1.0 if x is all zeros or empty), with |q * scale - x| <= scale / 2.
    Do not modify `x`. This is the reference: correct, but it goes through a
    float64 copy and several full-size float64 temporaries.
    """
    x64 = x.astype(np.float64)
    max_abs = np.abs(x64).max() if x64.size else 0.0
    scale = float(max_abs) / 127.0 if max_abs > 0 else 1.0
    q = np.clip(np.rint(x64 / scale), -127, 127).astype(np.int8)
    return q, scale
