import cupy as cp


def softmax_rows(z):
    """Return the softmax of each row of `z`, on the GPU.

    z: 2-D CuPy float32 array (n, d), d >= 1, finite values, n may be 0; do not modify it.
    Result: a new CuPy float32 array of the same shape; row i is exp(z[i]) / exp(z[i]).sum(),
    computed without overflow.
    This is the reference: a Python loop over rows, launching kernels for each. Make it fast.
    """
    out = cp.empty_like(z)
    for i in range(z.shape[0]):
        row = z[i]
        e = cp.exp(row - row.max())
        out[i] = e / e.sum()
    return out
