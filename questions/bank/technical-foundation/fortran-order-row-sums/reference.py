import numpy as np


def row_sums(a):
    """Sum each row of `a` in turn. For a Fortran-ordered `a`, a row is strided:
    every element is in a different cache line."""
    n_rows = a.shape[0]
    out = np.empty(n_rows)
    for i in range(n_rows):
        out[i] = a[i, :].sum()
    return out
