import numpy as np


def count_at_most(sorted_values, queries):
    return np.searchsorted(sorted_values, queries, "right").astype(np.int64)
