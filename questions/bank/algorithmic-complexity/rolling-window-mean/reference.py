import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def rolling_mean(x, w):
    """Mean of every length-w window: vectorised, but w additions per output."""
    if w > x.shape[0]:
        return np.empty(0)
    return sliding_window_view(x, w).mean(axis=1)
