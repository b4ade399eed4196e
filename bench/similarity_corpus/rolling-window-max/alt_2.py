import numpy as np
from numba import njit


@njit(cache=True)
def _window_maxima(x, w):
    n = x.shape[0]
    out = np.empty(n - w + 1)
    best = -np.inf
    where = -1
    for start in range(n - w + 1):
        end = start + w
        if where < start:
            # The last maximum left the window: scan the whole window again.
            best = x[start]
            where = start
            for j in range(start + 1, end):
                if x[j] >= best:
                    best = x[j]
                    where = j
        elif x[end - 1] >= best:
            best = x[end - 1]
            where = end - 1
        out[start] = best
    return out


def rolling_max(x, w):
    if w > len(x):
        return np.empty(0)
    return _window_maxima(x, w)
