import bisect

import numpy as np


def count_at_most(sorted_values, queries):
    """For each query, how many values are <= it: one binary search per query, in Python."""
    values = sorted_values.tolist()
    return np.array([bisect.bisect_right(values, query) for query in queries.tolist()], dtype=np.int64)
