import numpy as np
from numba import njit

NUM_LABELS = 8


@njit(cache=False)
def count_labels(labels):
    """Return how many times each label occurs, as a new int64 array of length 8.

    `labels` is a 1-D int8 array (any length, including 0) whose values are the
    labels 0 to 7. `labels` must not be modified. This is the reference: one
    compiled pass on one thread. The grader gives your code two CPUs: use them.
    """
    counts = np.zeros(NUM_LABELS, np.int64)
    for i in range(labels.shape[0]):
        counts[labels[i]] += 1
    return counts
