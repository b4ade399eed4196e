import numpy as np


def box_mean(image, radius):
    k = 2 * radius + 1
    rows, cols = image.shape
    if rows < k or cols < k:
        return np.empty((max(rows - k + 1, 0), max(cols - k + 1, 0)))
    # Summed-area table with a row and a column of zeros in front:
    # table[i, j] = image[:i, :j].sum(), so any window sum is four lookups.
    table = np.zeros((rows + 1, cols + 1))
    np.cumsum(image, axis=0, out=table[1:, 1:])
    np.cumsum(table[1:, 1:], axis=1, out=table[1:, 1:])
    sums = table[k:, k:] - table[:-k, k:] - table[k:, :-k] + table[:-k, :-k]
    sums /= k * k
    return sums
