import numpy as np


def count_pairs(users, items):
    both = np.column_stack((users, items))
    unique_pairs, counts = np.unique(both, axis=0, return_counts=True)
    first_col = unique_pairs[:, 0].copy()
    return first_col, unique_pairs[:, 1].copy(), counts.astype(np.int64)
