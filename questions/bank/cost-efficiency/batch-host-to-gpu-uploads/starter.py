import cupy as cp
import numpy as np


def upload_concat(chunks):
    """Return numpy.concatenate(chunks) as a float32 CuPy array on the GPU.

    `chunks`: a tuple of 1-D float32 NumPy arrays in host memory (possibly empty);
    do not modify them.
    This is the reference: one host-to-device transfer per chunk. Make it one in total.
    """
    if not chunks:
        return cp.empty(0, dtype=cp.float32)
    on_device = [cp.asarray(chunk) for chunk in chunks]
    return cp.concatenate(on_device)
