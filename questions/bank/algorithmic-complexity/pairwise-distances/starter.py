import numpy as np


def pairwise_distances(A, B):
    """Return D with D[i, j] = Euclidean distance between A[i] and B[j].

    A: float64 (m, d); B: float64 (n, d); result: new float64 (m, n).
    Do not modify A or B. This is the reference: a Python loop over all m * n pairs.
    """
    m, n = A.shape[0], B.shape[0]
    out = np.empty((m, n))
    for i in range(m):
        for j in range(n):
            diff = A[i] - B[j]
            out[i, j] = np.sqrt(np.dot(diff, diff))
    return out
