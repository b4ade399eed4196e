import numpy as np


def pairwise_distances(A, B):
    """Distance from every row of A to every row of B, one pair at a time."""
    m, n = A.shape[0], B.shape[0]
    out = np.empty((m, n))
    for i in range(m):
        for j in range(n):
            diff = A[i] - B[j]
            out[i, j] = np.sqrt(np.dot(diff, diff))
    return out
