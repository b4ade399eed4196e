import numpy as np


def transform(x):
    # x * 2.0 allocates the one output array; the remaining steps reuse it in place.
    y = x * 2.0
    y += 1.0
    return np.square(y, out=y)
