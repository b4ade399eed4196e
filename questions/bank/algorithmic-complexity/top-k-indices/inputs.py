import numpy as np

K = 100


def make_inputs(size, seed):
    """`size` scores on a grid of 1/8 (so equal scores are common, also at the
    k-th place) and k = 100."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 50_000, size=size).astype(np.float64) / 8.0
    return scores, K


def edge_cases():
    tied = np.array([1.0, 3.0, 3.0, 2.0, 3.0, 1.0])
    return [
        (np.zeros(0), 3),
        (np.array([2.5]), 1),
        (np.array([2.5]), 0),
        (tied, 2),  # three 3.0s compete for two places: indices 1 and 2
        (tied, 4),
        (tied, 10),  # k > n: every index
        (np.array([0.0, -0.0, np.inf, -np.inf, 5.0, np.inf]), 3),
        (np.full(9, 7.0), 4),
        # 150 threes for 100 places: argpartition keeps other indices, in another order, whatever the
        # seed (on the random check size its order matches the stable sort's about one time in twelve).
        (np.tile(tied, 50), 100),
    ]
