import numpy as np


def column_sums(a):
    """Sum each column of `a` in turn. For a C-ordered `a`, a column is strided:
    every element is in a different cache line."""
    n_cols = a.shape[1]
    out = np.empty(n_cols)
    for j in range(n_cols):
        out[j] = a[:, j].sum()
    return out
