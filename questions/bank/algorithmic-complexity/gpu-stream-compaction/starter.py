import cupy as cp


def keep_positive(x):
    """Return the elements of `x` that are > 0, in their original order.

    x: 1-D CuPy float32 array on the device (may be empty, may hold NaN); do not modify it.
    Result: a new 1-D CuPy float32 array on the device (NaN is not > 0).
    This is the reference: a round trip through host memory. Keep it on the GPU.
    """
    host = cp.asnumpy(x)
    return cp.asarray(host[host > 0])
