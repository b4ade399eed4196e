import cupy as cp

CHUNK = 1 << 14


def prefix_sums(x):
    """Return the inclusive prefix sums of `x` as int64: out[i] = x[0] + ... + x[i].

    x: 1-D CuPy int32 array on the device, values in [0, 1000], may be empty; do not
    modify it. Result: a new CuPy int64 array of the same length, on the device.
    This is the reference: a loop over chunks with a carry. Make it one scan.
    """
    out = cp.empty(x.shape[0], dtype=cp.int64)
    carry = cp.zeros((), dtype=cp.int64)
    for start in range(0, x.shape[0], CHUNK):
        stop = min(start + CHUNK, x.shape[0])
        out[start:stop] = cp.cumsum(x[start:stop], dtype=cp.int64) + carry
        carry = out[stop - 1]
    return out
