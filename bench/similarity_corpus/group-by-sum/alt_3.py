import numpy as np


def group_sums(keys, values):
    uniq, positions = np.unique(keys, return_inverse=True)
    out = np.zeros(len(uniq))
    np.add.at(out, positions, values)
    return uniq, out
