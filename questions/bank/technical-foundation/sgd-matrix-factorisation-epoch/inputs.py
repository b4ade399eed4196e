import numpy as np

FACTORS = 16
LEARNING_RATE = 0.01
REGULARISATION = 0.05


def make_inputs(size, seed):
    """`size` ratings from 1 to 5 over size/20 users and size/40 items, so rows repeat."""
    rng = np.random.default_rng(seed)
    n_users = max(1, size // 20)
    n_items = max(1, size // 40)
    users = rng.integers(0, n_users, size=size, dtype=np.int64)
    items = rng.integers(0, n_items, size=size, dtype=np.int64)
    ratings = rng.integers(1, 6, size=size).astype(np.float64)
    P = rng.normal(0.0, 0.1, size=(n_users, FACTORS))
    Q = rng.normal(0.0, 0.1, size=(n_items, FACTORS))
    return users, items, ratings, P, Q, LEARNING_RATE, REGULARISATION


def edge_cases():
    rng = np.random.default_rng(7)
    P = rng.normal(0.0, 0.1, size=(3, 4))
    Q = rng.normal(0.0, 0.1, size=(2, 4))
    same_pair = np.zeros(5, dtype=np.int64)
    return [
        # No ratings: the factors come back unchanged (as new arrays).
        (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0), P, Q, 0.01, 0.05),
        # One (user, item) pair rated five times in a row: each step builds on the last.
        (same_pair, same_pair, np.array([5.0, 4.0, 5.0, 3.0, 5.0]), P, Q, 0.1, 0.02),
        # A single factor, and a rating the model already predicts (zero error).
        (np.array([0], dtype=np.int64), np.array([0], dtype=np.int64), np.array([0.0]), np.zeros((1, 1)), np.zeros((1, 1)), 0.01, 0.05),
    ]
