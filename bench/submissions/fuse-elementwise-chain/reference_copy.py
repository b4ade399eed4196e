# Calibration: the reference, character for character. Must read 1.00x.
import numpy as np


def transform(x):
    """(2x + 1)**2 as a chain of full-size temporaries, all alive until the return."""
    a = x * 2.0
    b = a + 1.0
    c = b * b
    return c
