import numpy as np


def group_sums(keys, values):
    # Map each key to a dense group number 0..G-1 (one sort), then one pass adds
    # every value into its group's slot.
    unique_keys, group = np.unique(keys, return_inverse=True)
    sums = np.bincount(group.ravel(), weights=values, minlength=unique_keys.size)
    # bincount returns int64 zeros when it is given no rows at all, even with weights.
    return unique_keys, sums.astype(np.float64, copy=False)
