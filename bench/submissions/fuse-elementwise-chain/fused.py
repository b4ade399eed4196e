# The fused answer: one allocation (the result), every later step in place.
import numpy as np


def transform(x):
    out = np.multiply(x, 2.0)
    out += 1.0
    np.square(out, out=out)
    return out
