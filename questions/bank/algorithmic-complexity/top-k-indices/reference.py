import numpy as np


def top_k(scores, k):
    """Indices of the k largest scores, largest first, ties by lower index:
    a full stable sort, O(n log n), to keep k of n."""
    return np.argsort(-scores, kind="stable")[:k]
