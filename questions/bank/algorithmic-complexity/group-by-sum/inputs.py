import numpy as np


def make_inputs(size, seed):
    """`size` rows over size/1000 distinct ids drawn from [0, 2**62): the ids are far
    too large to index an array of counts directly."""
    rng = np.random.default_rng(seed)
    groups = max(1, size // 1000)
    ids = rng.choice(2**62, size=groups, replace=False).astype(np.int64)
    keys = ids[rng.integers(0, groups, size=size)]
    values = rng.standard_normal(size)
    return keys, values


def edge_cases():
    big = 2**62 - 1
    return [
        (np.zeros(0, dtype=np.int64), np.zeros(0)),
        (np.array([7], dtype=np.int64), np.array([2.5])),
        # Keys arrive out of order; first appearance is not ascending order.
        (np.array([9, 3, 9, big, 3, 0], dtype=np.int64), np.array([1.0, 2.0, 3.0, 4.0, -2.0, 0.5])),
        # A group whose values cancel exactly.
        (np.array([5, 5, 1], dtype=np.int64), np.array([1.5, -1.5, 0.25])),
        (np.full(6, 4, dtype=np.int64), np.arange(6.0)),
    ]
