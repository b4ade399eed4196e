import numpy as np


def rle_decode(values, counts):
    """Expand runs by appending each one to the result. Deliberately naive: np.append
    copies the whole result every time, so the total work is quadratic."""
    out = np.empty(0, dtype=np.float64)
    for value, count in zip(values.tolist(), counts.tolist()):
        out = np.append(out, np.full(count, value))
    return out
