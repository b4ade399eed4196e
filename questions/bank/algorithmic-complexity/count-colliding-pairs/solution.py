import numpy as np


def count_pairs(users, items):
    # Sorting compares ids and never hashes them: O(n log n) whatever the attacker picks.
    order = np.lexsort((items, users))
    sorted_users = users[order]
    sorted_items = items[order]
    if sorted_users.size == 0:
        return sorted_users, sorted_items, np.zeros(0, dtype=np.int64)
    starts = np.empty(sorted_users.size, dtype=bool)
    starts[0] = True
    starts[1:] = (sorted_users[1:] != sorted_users[:-1]) | (sorted_items[1:] != sorted_items[:-1])
    first = np.flatnonzero(starts)
    counts = np.diff(np.append(first, sorted_users.size))
    return sorted_users[first], sorted_items[first], counts.astype(np.int64)
