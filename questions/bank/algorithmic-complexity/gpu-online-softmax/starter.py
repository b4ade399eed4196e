import cupy as cp


def softmax(z):
    """Return the softmax of each row of `z`.

    z: 2-D C-contiguous CuPy float32 array (n, d), n >= 0, d >= 1, finite values;
    do not modify it. Result: a new CuPy float32 array of the same shape, row i the
    softmax of z[i], left on the device. This is the reference, five kernels over
    the batch. Write one kernel (cp.RawKernel): the row's maximum and sum of
    exponentials in one pass (online normalisation), then the output.
    """
    out = z - z.max(axis=1, keepdims=True)
    cp.exp(out, out=out)
    out /= out.sum(axis=1, keepdims=True)
    return out
