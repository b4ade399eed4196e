import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def box_mean(image, radius):
    k = 2 * radius + 1
    if image.shape[0] < k or image.shape[1] < k:
        return np.empty((max(image.shape[0] - k + 1, 0), max(image.shape[1] - k + 1, 0)))
    vertical = sliding_window_view(image, k, axis=0).sum(axis=-1)
    return sliding_window_view(vertical, k, axis=1).sum(axis=-1) / (k * k)
