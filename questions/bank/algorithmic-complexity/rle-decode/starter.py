import numpy as np


def rle_decode(values, counts):
    """Decode run-length encoded data.

    values: 1-D float64 array, the value of each run; counts: 1-D int64 array of the
    same length, each >= 0 (a run may be empty). Do not modify either.
    Result: a new float64 array holding counts[0] copies of values[0], then counts[1]
    copies of values[1], and so on.
    This is the reference: it grows the result with np.append. Make it fast.
    """
    out = np.empty(0, dtype=np.float64)
    for value, count in zip(values.tolist(), counts.tolist()):
        out = np.append(out, np.full(count, value))
    return out
