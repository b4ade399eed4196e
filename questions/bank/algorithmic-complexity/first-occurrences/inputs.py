import numpy as np


def make_inputs(size, seed):
    """`size` values drawn from about size/2 distinct ids spread over the int64 range:
    most ids repeat, in random order."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=max(1, size // 2), endpoint=True)
    return (ids[rng.integers(0, ids.size, size=size)],)


def edge_cases():
    i64 = np.int64
    return [
        (np.zeros(0, dtype=i64),),
        (np.array([5], dtype=i64),),
        (np.array([3, 1, 3, 2, 1, 0], dtype=i64),),
        (np.array([9, 8, 7, 6], dtype=i64),),  # all distinct, decreasing
        (np.full(5, -4, dtype=i64),),
        (np.array([np.iinfo(i64).max, np.iinfo(i64).min, 0, np.iinfo(i64).max], dtype=i64),),
    ]
