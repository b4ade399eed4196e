import numpy as np


def csr_matvec(indptr, indices, data, x):
    """y = A @ x for A in CSR form. Deliberately naive: a Python loop over rows,
    with a few small NumPy calls per row."""
    n_rows = indptr.shape[0] - 1
    y = np.zeros(n_rows)
    for i in range(n_rows):
        start, stop = indptr[i], indptr[i + 1]
        if stop > start:
            y[i] = data[start:stop] @ x[indices[start:stop]]
    return y
