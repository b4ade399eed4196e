import numpy as np
from numba import njit

NUM_LABELS = 8


@njit(cache=False)
def count_labels(labels):
    """How many times each label 0..7 occurs: one compiled pass on one thread."""
    counts = np.zeros(NUM_LABELS, np.int64)
    for i in range(labels.shape[0]):
        counts[labels[i]] += 1
    return counts
