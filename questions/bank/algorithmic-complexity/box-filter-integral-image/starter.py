import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def box_mean(image, radius):
    """Return the mean of every k x k window (k = 2 * radius + 1) that fits in `image`.

    image: 2-D float64 array of finite values, shape (rows, cols); do not modify it.
    radius: int >= 0.
    Result: float64 array of shape (max(rows - k + 1, 0), max(cols - k + 1, 0));
    result[i, j] is image[i:i + k, j:j + k].mean().
    This is the reference: O(rows * cols * k * k). Make it O(rows * cols).
    """
    k = 2 * radius + 1
    rows, cols = image.shape
    if rows < k or cols < k:
        return np.empty((max(rows - k + 1, 0), max(cols - k + 1, 0)))
    return sliding_window_view(image, (k, k)).mean(axis=(2, 3))
