import cupy as cp


def histogram_256(x):
    """Return how often each byte value 0..255 occurs in `x`.

    x: 1-D CuPy uint8 array on the device (may be empty); do not modify it.
    Result: a new CuPy int64 array of length 256, left on the device.
    This is the reference, cp.bincount. Write the counting kernel yourself
    (cp.RawKernel): one read of the data, counts kept per block in shared memory.
    """
    return cp.bincount(x, minlength=256)
