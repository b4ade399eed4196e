import numpy as np


def top_k(scores, k):
    n = len(scores)
    k = min(k, n)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    if k == n:
        return np.argsort(-scores, kind="stable").astype(np.int64)
    kth = np.sort(np.partition(scores, n - k)[n - k:])[0]
    above = np.flatnonzero(scores > kth)
    needed = k - len(above)
    tied = np.flatnonzero(scores == kth)[:needed]
    chosen = np.concatenate((above, tied))
    ranking = np.lexsort((chosen, -scores[chosen]))
    return chosen[ranking].astype(np.int64)
