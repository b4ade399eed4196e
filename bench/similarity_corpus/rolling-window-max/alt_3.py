import numpy as np


def rolling_max(x, w):
    length = x.shape[0] - w + 1
    if length <= 0:
        return np.empty(0)
    # Doubling: after step s, best[i] is the max of x[i:i + s].
    best = x.copy()
    span = 1
    while span * 2 <= w:
        best = np.maximum(best[:-span], best[span:])
        span *= 2
    rest = w - span
    if rest:
        best = np.maximum(best[:-rest], best[rest:])
    return best[:length].copy()
