CHUNK = 1 << 16


def total(x):
    """Return the sum of `x` as a Python float.

    x: 1-D CuPy float32 array on the device, values in [0, 1), may be empty; do not modify it.
    This is the reference: one synchronising device-to-host copy per 65 536 values.
    Make it one.
    """
    result = 0.0
    for start in range(0, x.shape[0], CHUNK):
        result += float(x[start:start + CHUNK].sum())
    return result
