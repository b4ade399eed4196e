"""Return NaN everywhere: a comparison with equal_nan or a NaN-unsafe
`abs(got - want) <= tol` that is False-but-ignored must not pass it."""
import numpy as np


def transform(x):
    return np.full_like(x, np.nan)
