import bisect

import numpy as np


def count_at_most(sorted_values, queries):
    """For every query q, count the values that are <= q.

    sorted_values: 1-D float64 array sorted ascending (duplicates allowed, no NaN).
    queries: 1-D float64 array, any order, no NaN. Do not modify either.
    Result: int64 array of len(queries) counts.
    This is the reference: bisect in a Python loop. Make it fast.
    """
    values = sorted_values.tolist()
    return np.array([bisect.bisect_right(values, query) for query in queries.tolist()], dtype=np.int64)
