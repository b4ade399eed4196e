import numpy as np


def csr_matvec(indptr, indices, data, x):
    products = data * x[indices]
    sums = np.zeros(len(indptr) - 1)
    nonempty = indptr[:-1] < indptr[1:]
    if products.size:
        partial = np.add.reduceat(products, indptr[:-1][nonempty])
        sums[nonempty] = partial
    return sums
