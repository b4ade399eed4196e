import cupy as cp


def transpose(a):
    """Return the transpose of `a` as a new C-contiguous array.

    a: 2-D C-contiguous CuPy float32 array of shape (rows, cols), either may be 0;
    do not modify it. Result: a new C-contiguous CuPy float32 array of shape
    (cols, rows), left on the device. This is the reference, a copy of the
    transposed view. Write the kernel (cp.RawKernel): tiles through shared memory.
    """
    return cp.ascontiguousarray(a.T)
