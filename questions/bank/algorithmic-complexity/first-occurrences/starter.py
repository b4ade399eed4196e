import numpy as np


def first_occurrences(x):
    """Return the distinct values of `x` in the order they first appear.

    x: 1-D int64 array (any values, possibly empty); do not modify it.
    Result: a new int64 array, each distinct value once, ordered by its first index in x.
    This is the reference: a set in a Python loop. Make it fast.
    """
    seen = set()
    out = []
    for value in x.tolist():
        if value not in seen:
            seen.add(value)
            out.append(value)
    return np.array(out, dtype=np.int64)
