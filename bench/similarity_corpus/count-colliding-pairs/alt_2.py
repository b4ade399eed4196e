import numpy as np


def count_pairs(users, items):
    n = users.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy()
    idx = np.lexsort((items, users))
    u = users[idx]
    it = items[idx]
    new_run = np.ones(n, dtype=bool)
    new_run[1:] = (u[1:] != u[:-1]) | (it[1:] != it[:-1])
    run_starts = np.nonzero(new_run)[0]
    run_ends = np.append(run_starts[1:], n)
    return u[run_starts], it[run_starts], (run_ends - run_starts).astype(np.int64)
