import numpy as np


def top_k(scores, k):
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    if k < scores.size:
        part = np.argpartition(-scores, k - 1)
        limit = scores[part[k - 1]]
        pool = np.nonzero(scores >= limit)[0]
    else:
        pool = np.arange(scores.size)
    ranked = pool[np.argsort(-scores[pool], kind="stable")]
    return ranked[:k].astype(np.int64)
