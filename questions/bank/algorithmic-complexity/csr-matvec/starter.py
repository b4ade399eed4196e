import numpy as np


def csr_matvec(indptr, indices, data, x):
    """Return y = A @ x for the sparse matrix A given in CSR form.

    indptr: int64 array of n_rows + 1 non-decreasing offsets, indptr[0] == 0,
            indptr[-1] == len(data); row i's entries are data[indptr[i]:indptr[i+1]].
    indices: int32 column index of each entry (in [0, len(x)); unsorted within a row,
             repeats allowed: repeated entries add up).
    data: float64 value of each entry. x: float64 vector. Do not modify any argument.
    Result: a new float64 array of length n_rows (0.0 for an empty row).
    This is the reference: a Python loop over rows. Make it fast.
    """
    n_rows = indptr.shape[0] - 1
    y = np.zeros(n_rows)
    for i in range(n_rows):
        start, stop = indptr[i], indptr[i + 1]
        if stop > start:
            y[i] = data[start:stop] @ x[indices[start:stop]]
    return y
