import numpy as np


def pairwise_distances(A, B):
    # (m, 1, d) - (1, n, d) broadcasts to every pair in one C loop.
    diff = A[:, None, :] - B[None, :, :]
    return np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
