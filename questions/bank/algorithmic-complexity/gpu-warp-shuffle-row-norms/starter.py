import cupy as cp


def row_norms(x):
    """Return the Euclidean norm of each row of `x`.

    x: 2-D C-contiguous CuPy float32 array of shape (n, d), n >= 0, d >= 1; do not
    modify it. Result: a new CuPy float32 array of shape (n,), left on the device.
    This is the reference. Write the kernel (cp.RawKernel): one warp per row, its
    partial sums combined with warp shuffles.
    """
    return cp.sqrt((x * x).sum(axis=1))
