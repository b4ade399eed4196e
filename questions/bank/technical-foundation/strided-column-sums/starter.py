import numpy as np


def column_sums(a):
    """Return the sum of each column of the 2-D float64, C-ordered array `a`.

    Result: a new float64 array of length a.shape[1]. Do not modify `a` and do
    not copy it into Fortran order. This is the reference: each a[:, j] walks
    memory with a stride of 8 * a.shape[1] bytes.
    """
    n_cols = a.shape[1]
    out = np.empty(n_cols)
    for j in range(n_cols):
        out[j] = a[:, j].sum()
    return out
