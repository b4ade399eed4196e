import numpy as np


def csr_matvec(indptr, indices, data, x):
    products = data * x[indices]
    sums = np.zeros(len(indptr) - 1)
    nonempty = np.diff(indptr) > 0
    if len(products) > 0:
        sums[nonempty] = np.add.reduceat(products, indptr[:-1][nonempty])
    return sums
