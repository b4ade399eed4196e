import numpy as np


def rle_decode(values, counts):
    # The output size is known up front (counts.sum()), so nothing needs to grow.
    return np.repeat(values, counts)
