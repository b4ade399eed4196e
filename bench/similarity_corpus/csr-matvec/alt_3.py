import numpy as np


def csr_matvec(indptr, indices, data, x):
    totals = np.concatenate(([0.0], np.cumsum(data * x[indices])))
    return totals[indptr[1:]] - totals[indptr[:-1]]
