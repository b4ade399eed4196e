# An honest answer: the whole loop as three calls into NumPy's compiled loops.
import numpy as np


def transform(x):
    y = x * 2.0
    y += 1.0
    return np.square(y, out=y)
