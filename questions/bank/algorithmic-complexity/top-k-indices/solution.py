import numpy as np


def top_k(scores, k):
    n = scores.shape[0]
    if k >= n:
        return np.argsort(-scores, kind="stable")
    if k == 0:
        return np.empty(0, dtype=np.int64)
    # The k-th largest value, by selection: O(n), no full sort.
    threshold = np.partition(scores, n - k)[n - k]
    # Everything at least that large (k values, plus any ties at the threshold), in index order.
    candidates = np.flatnonzero(scores >= threshold)
    # A stable sort of the few candidates keeps ties in index order.
    order = np.argsort(-scores[candidates], kind="stable")[:k]
    return candidates[order].astype(np.int64, copy=False)
