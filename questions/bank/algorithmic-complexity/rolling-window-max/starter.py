import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def rolling_max(x, w):
    """Return the maximum of each window x[i:i + w] for i in range(len(x) - w + 1).

    x: 1-D float64 array of finite values (not to be modified); w: int >= 1.
    Result: a new float64 array of length max(len(x) - w + 1, 0).
    This is the reference: O(n * w) comparisons. Make it O(n).
    """
    if w > x.shape[0]:
        return np.empty(0)
    return sliding_window_view(x, w).max(axis=1)
