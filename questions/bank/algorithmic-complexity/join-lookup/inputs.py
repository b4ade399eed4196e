import numpy as np


def make_inputs(size, seed):
    """`size` orders over size/10 customers with sparse ids; one order in ten names a
    customer that is not in the table (including ids past the largest known one)."""
    rng = np.random.default_rng(seed)
    customers = max(1, size // 10)
    ids = rng.choice(2**62, size=customers + customers // 5 + 1, replace=False).astype(np.int64)
    known, unknown = ids[:customers], ids[customers:]
    regions = rng.integers(0, 50, size=customers)
    orders = known[rng.integers(0, customers, size=size)]
    strangers = rng.random(size) < 0.1
    orders[strangers] = unknown[rng.integers(0, unknown.size, size=int(strangers.sum()))]
    return known, regions, orders


def edge_cases():
    i64 = np.int64
    ids = np.array([40, 10, 30], dtype=i64)
    regions = np.array([4, 1, 3], dtype=i64)
    return [
        (np.zeros(0, dtype=i64), np.zeros(0, dtype=i64), np.array([5, 6], dtype=i64)),
        (ids, regions, np.zeros(0, dtype=i64)),
        # Below, between, equal to and above every known id.
        (ids, regions, np.array([5, 10, 20, 30, 40, 41, 2**62], dtype=i64)),
        (np.array([7], dtype=i64), np.array([0], dtype=i64), np.array([7, 7, 8], dtype=i64)),
    ]
