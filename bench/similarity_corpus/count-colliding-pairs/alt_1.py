import numpy as np


def count_pairs(users, items):
    pairs = np.stack([users, items], axis=1)
    unique_pairs, counts = np.unique(pairs, axis=0, return_counts=True)
    return unique_pairs[:, 0].copy(), unique_pairs[:, 1].copy(), counts.astype(np.int64)
