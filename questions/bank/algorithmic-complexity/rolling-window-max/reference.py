from numpy.lib.stride_tricks import sliding_window_view
import numpy as np


def rolling_max(x, w):
    """Maximum of every length-w window: vectorised, but w comparisons per output."""
    if w > x.shape[0]:
        return np.empty(0)
    return sliding_window_view(x, w).max(axis=1)
