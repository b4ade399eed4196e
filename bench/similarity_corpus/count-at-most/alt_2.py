import numpy as np


def count_at_most(sorted_values, queries):
    counts = np.searchsorted(sorted_values, queries, side="right")
    return counts.astype(np.int64, copy=False)
