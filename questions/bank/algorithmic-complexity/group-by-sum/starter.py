import numpy as np


def group_sums(keys, values):
    """Sum `values` per distinct key.

    keys: 1-D int64 array of ids in [0, 2**62) (sparse: not small consecutive numbers).
    values: 1-D float64 array of the same length, finite. Do not modify either.
    Result: (unique_keys, sums), two new arrays: unique_keys int64, ascending, each
    distinct key once; sums float64, sums[i] = total of values whose key is unique_keys[i].
    This is the reference: one mask over all n rows per group. Make it fast.
    """
    unique_keys = np.unique(keys)
    sums = np.array([values[keys == key].sum() for key in unique_keys], dtype=np.float64)
    return unique_keys, sums
