import cupy as cp


def byte_histogram(x):
    """Return how often each byte value 0..255 occurs in `x`.

    x: 1-D CuPy uint8 array on the device (may be empty); do not modify it.
    Result: a CuPy int64 array of length 256, left on the device.
    This is the reference: 256 passes over the data. Make it a handful.
    """
    counts = cp.zeros(256, dtype=cp.int64)
    for value in range(256):
        counts[value] = (x == value).sum()
    return counts
