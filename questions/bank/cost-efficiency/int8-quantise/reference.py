import numpy as np


def quantize_int8(x):
    """Symmetric per-tensor int8 quantisation, the straightforward way: convert to
    float64 and build the result through full-size temporaries."""
    x64 = x.astype(np.float64)
    max_abs = np.abs(x64).max() if x64.size else 0.0
    scale = float(max_abs) / 127.0 if max_abs > 0 else 1.0
    q = np.clip(np.rint(x64 / scale), -127, 127).astype(np.int8)
    return q, scale
