import cupy as cp


def segmented_prefix_sums(x, offsets):
    """Return running totals of `x` that restart at every segment, as int64.

    x: 1-D CuPy int32 array on the device, values in [0, 1000], may be empty.
    offsets: 1-D CuPy int64 array of m + 1 non-decreasing boundaries, offsets[0] == 0
    and offsets[-1] == len(x); segment k is x[offsets[k]:offsets[k + 1]] and may be
    empty. Do not modify either array.
    Result: a new CuPy int64 array of len(x), on the device, with
    out[i] = x[s] + ... + x[i] where s is the start of the segment holding i.
    This is the reference: one scan per segment. Make it a fixed number of
    device-wide operations, whatever the number of segments.
    """
    out = cp.empty(x.shape[0], dtype=cp.int64)
    bounds = cp.asnumpy(offsets).tolist()  # the segment boundaries, on the host
    for k in range(len(bounds) - 1):
        start, stop = bounds[k], bounds[k + 1]
        if stop > start:
            out[start:stop] = cp.cumsum(x[start:stop], dtype=cp.int64)
    return out
