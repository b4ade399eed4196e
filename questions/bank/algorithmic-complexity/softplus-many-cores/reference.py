import math

import numpy as np
from numba import njit


@njit(cache=False)
def softplus(x):
    """log(1 + exp(x)) for each element, computed without overflow, on one thread."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
    return out
