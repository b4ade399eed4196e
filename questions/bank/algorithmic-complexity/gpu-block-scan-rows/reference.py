import cupy as cp


def row_prefix_sums(x):
    """The library way: a cumulative sum along each row, accumulated in int64."""
    return cp.cumsum(x, axis=1, dtype=cp.int64)
