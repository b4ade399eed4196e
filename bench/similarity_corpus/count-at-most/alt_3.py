import numpy as np


def count_at_most(sorted_values, queries):
    order = np.argsort(queries, kind="stable")
    result = np.empty(len(queries), dtype=np.int64)
    result[order] = np.searchsorted(sorted_values, queries[order], side="right")
    return result
