import numpy as np


def rle_decode(values, counts):
    ends = np.cumsum(counts)
    which = np.searchsorted(ends, np.arange(ends[-1] if ends.size else 0), side="right")
    return values[which]
