import math

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=False)
def softplus(x):
    out = np.empty_like(x)
    # Each element is independent: prange splits the index range into one
    # block per thread, and each thread writes only its own block of `out`.
    for i in prange(x.shape[0]):
        v = x[i]
        out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
    return out
