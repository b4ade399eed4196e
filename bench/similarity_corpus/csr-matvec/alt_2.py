import scipy.sparse as sp


def csr_matvec(indptr, indices, data, x):
    shape = (indptr.shape[0] - 1, x.shape[0])
    return sp.csr_matrix((data, indices, indptr), shape=shape) @ x
