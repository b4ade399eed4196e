import numpy as np

# CPython hashes a non-negative int as its value modulo 2**61 - 1, and
# 2**64 = 8 (mod 2**61 - 1), so the packed key (user << 64) | item hashes to
# (8 * user + item) mod (2**61 - 1). Pairs with item = TARGET - 8 * user all collide.
TARGET = 2**62


def make_inputs(size, seed):
    """`size` events over about size/4 distinct pairs, every one with the same hash."""
    rng = np.random.default_rng(seed)
    distinct = max(1, size // 4)
    pair_users = rng.choice(2**40, size=distinct, replace=False).astype(np.int64)
    pair_items = (TARGET - 8 * pair_users).astype(np.int64)
    picks = rng.integers(0, distinct, size=size)
    return pair_users[picks], pair_items[picks]


def edge_cases():
    big = 2**63 - 1
    return [
        (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)),
        (np.array([5], dtype=np.int64), np.array([9], dtype=np.int64)),
        # Same user with different items, same item with different users, repeats, extremes.
        (
            np.array([3, 3, 1, 3, 0, big, 1, 0], dtype=np.int64),
            np.array([7, 2, 7, 7, big, 0, 7, big], dtype=np.int64),
        ),
        # Ordinary pairs that do not collide.
        (np.arange(7, dtype=np.int64) % 3, np.arange(7, dtype=np.int64) % 2),
    ]
