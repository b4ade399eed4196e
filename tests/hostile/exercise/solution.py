import numpy as np


def transform(x):
    out = np.multiply(x, x)
    out += 1.0
    np.sqrt(out, out=out)
    out *= 2.0
    out -= x
    return out
