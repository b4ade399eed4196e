import numpy as np

KEY_SHIFT = 64
ITEM_MASK = (1 << KEY_SHIFT) - 1


def count_pairs(users, items):
    """Count (user, item) pairs with a dict keyed by one packed Python int."""
    counts = {}
    for user, item in zip(users.tolist(), items.tolist()):
        key = (user << KEY_SHIFT) | item
        counts[key] = counts.get(key, 0) + 1
    keys = sorted(counts)
    pair_users = np.array([key >> KEY_SHIFT for key in keys], dtype=np.int64)
    pair_items = np.array([key & ITEM_MASK for key in keys], dtype=np.int64)
    pair_counts = np.array([counts[key] for key in keys], dtype=np.int64)
    return pair_users, pair_items, pair_counts
