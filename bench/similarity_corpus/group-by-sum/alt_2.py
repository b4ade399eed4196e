from collections import defaultdict

import numpy as np


def group_sums(keys, values):
    acc = defaultdict(float)
    for k, v in zip(keys.tolist(), values.tolist(), strict=True):
        acc[k] += v
    ordered = sorted(acc)
    return np.array(ordered, dtype=np.int64), np.array([acc[k] for k in ordered], dtype=np.float64)
