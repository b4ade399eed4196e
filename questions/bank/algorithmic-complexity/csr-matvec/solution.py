import numpy as np


def csr_matvec(indptr, indices, data, x):
    n_rows = indptr.shape[0] - 1
    # The row of every stored entry, then one pass adds each product into its row.
    # bincount handles empty rows (they stay 0.0), including trailing ones.
    rows = np.repeat(np.arange(n_rows), np.diff(indptr))
    sums = np.bincount(rows, weights=data * x[indices], minlength=n_rows)
    # With no entries at all bincount returns int64 zeros, even with weights.
    return sums.astype(np.float64, copy=False)
