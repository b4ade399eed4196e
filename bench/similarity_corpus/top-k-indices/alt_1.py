import numpy as np


def top_k(scores, k):
    n = len(scores)
    k = min(k, n)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    if k == n:
        return np.argsort(-scores, kind="stable").astype(np.int64)
    cut = -np.partition(-scores, k - 1)[k - 1]
    above = np.flatnonzero(scores > cut)
    tied = np.flatnonzero(scores == cut)[: k - above.size]
    chosen = np.concatenate((above, tied))
    ranking = np.lexsort((chosen, -scores[chosen]))
    return chosen[ranking].astype(np.int64)
