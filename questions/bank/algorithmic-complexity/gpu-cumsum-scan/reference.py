import cupy as cp


def segmented_prefix_sums(x, offsets):
    """Running totals that restart at every segment: one scan per segment, in a
    Python loop over the segments."""
    out = cp.empty(x.shape[0], dtype=cp.int64)
    bounds = cp.asnumpy(offsets).tolist()  # the segment boundaries, on the host
    for k in range(len(bounds) - 1):
        start, stop = bounds[k], bounds[k + 1]
        if stop > start:
            out[start:stop] = cp.cumsum(x[start:stop], dtype=cp.int64)
    return out
