import numpy as np


def group_sums(keys, values):
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    sorted_values = values[order]
    if sorted_keys.size == 0:
        return sorted_keys, np.zeros(0)
    boundaries = np.flatnonzero(np.diff(sorted_keys)) + 1
    starts = np.concatenate(([0], boundaries))
    totals = np.add.reduceat(sorted_values, starts)
    return sorted_keys[starts], totals
