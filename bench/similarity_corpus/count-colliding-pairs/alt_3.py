import numpy as np


def count_pairs(users, items):
    records = np.empty(users.shape[0], dtype=[("u", np.int64), ("i", np.int64)])
    records["u"] = users
    records["i"] = items
    distinct, how_many = np.unique(records, return_counts=True)
    return distinct["u"].copy(), distinct["i"].copy(), how_many.astype(np.int64)
