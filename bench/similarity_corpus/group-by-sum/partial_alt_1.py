import numpy as np


def group_sums(keys, values):
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    sorted_values = values[order]
    if len(sorted_keys) == 0:
        return sorted_keys, np.zeros(0)
    is_start = np.empty(len(sorted_keys), dtype=bool)
    is_start[0] = True
    is_start[1:] = sorted_keys[1:] != sorted_keys[:-1]
    starts = np.flatnonzero(is_start)
    totals = np.add.reduceat(sorted_values, starts)
    return sorted_keys[starts], totals
