import cupy as cp


def segmented_prefix_sums(x, offsets):
    # One device-wide scan (int64: one segment's total can pass 2**31) ...
    total = cp.cumsum(x, dtype=cp.int64)
    # ... then, for every element, the start of its segment (a binary search in
    # offsets; repeated offsets, the empty segments, share one start) ...
    segment = cp.searchsorted(offsets, cp.arange(x.shape[0]), side="right") - 1
    start = offsets[segment]
    # ... and the running total just before that start, which is subtracted.
    return total - (total[start] - x[start])
