import numpy as np


def transform(x):
    # One allocation (the result); every later step writes into it.
    out = np.multiply(x, 2.0)
    out += 1.0
    np.square(out, out=out)
    return out
