import heapq

import numpy as np


def top_k(scores, k):
    best = heapq.nlargest(k, range(len(scores)), key=lambda i: (scores[i], -i))
    return np.array(best, dtype=np.int64)
