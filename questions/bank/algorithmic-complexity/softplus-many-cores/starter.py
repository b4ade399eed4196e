import math

import numpy as np
from numba import njit


@njit(cache=False)
def softplus(x):
    """Return log(1 + exp(x[i])) for each element of a 1-D float64 array of finite values.

    Returns a new float64 array of the same length (`x` may be empty) and must
    not modify `x`. Written as log1p(exp(-|v|)) + max(v, 0) so that large
    values do not overflow. This is the reference: one element after another,
    on one thread. The grader gives your code two CPUs.
    """
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
    return out
