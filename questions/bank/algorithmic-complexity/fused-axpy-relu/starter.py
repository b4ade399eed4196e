import cupy as cp


def axpy_relu(x, alpha, beta):
    """Return alpha * x + beta * relu(x) for a 1-D float32 CuPy array `x`.

    alpha, beta: Python floats. Result: a new float32 CuPy array on the device;
    do not modify `x`. This is the reference: four kernel launches and three
    full-size temporaries. Fuse it into one kernel (cupy.ElementwiseKernel).
    """
    r = cp.maximum(x, 0.0)
    s = beta * r
    t = alpha * x
    y = t + s
    return y
