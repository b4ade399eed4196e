import numpy as np


def row_sums(a):
    """Return the sum of each row of the 2-D float64, Fortran-ordered array `a`.

    Result: a new float64 array of length a.shape[0]. Do not modify `a` and do
    not copy it into C order. This is the reference: each a[i, :] walks memory
    with a stride of 8 * a.shape[0] bytes.
    """
    n_rows = a.shape[0]
    out = np.empty(n_rows)
    for i in range(n_rows):
        out[i] = a[i, :].sum()
    return out
