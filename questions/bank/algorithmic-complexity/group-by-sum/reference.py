import numpy as np


def group_sums(keys, values):
    """Sum of values per distinct key, keys ascending. Deliberately naive: one
    full-length mask per group, O(n * groups)."""
    unique_keys = np.unique(keys)
    sums = np.array([values[keys == key].sum() for key in unique_keys], dtype=np.float64)
    return unique_keys, sums
