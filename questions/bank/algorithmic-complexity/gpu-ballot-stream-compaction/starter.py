import cupy as cp


def compact_positive(x):
    """Return the positive values of `x`, in their original order.

    x: 1-D CuPy float32 array (may be empty); do not modify it. Result: a new
    CuPy float32 array of the values v with v > 0 (NaN is not), in order, left on
    the device. This is the reference, x[x > 0]. Write the kernels
    (cp.RawKernel): warp ballots to count and to place each kept value.
    """
    return x[x > 0]
