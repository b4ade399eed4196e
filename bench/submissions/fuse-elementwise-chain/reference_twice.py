# Calibration: exactly twice the reference's work (its expression, evaluated two
# times; the second result is returned). Must read 0.50x.
import numpy as np


def reference_chain(x):
    a = x * 2.0
    b = a + 1.0
    c = b * b
    return c


def transform(x):
    reference_chain(x)
    return reference_chain(x)
