import numpy as np


def top_k(scores, k):
    """Return the indices of the k largest values of `scores`.

    scores: 1-D float64 array of n values, no NaN (infinities allowed); do not modify it.
    k: Python int, k >= 0 (may exceed n: then every index is returned).
    Result: int64 array of min(k, n) indices, ordered by score, largest first;
    equal scores are ordered by lower index first.
    This is the reference: it sorts all n scores to keep k. Make it faster.
    """
    return np.argsort(-scores, kind="stable")[:k]
