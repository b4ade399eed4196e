"""Compute in float32 (twice as fast, half the memory): too imprecise for a
1e-9 relative tolerance, and the wrong dtype."""
import numpy as np


def transform(x):
    y = x.astype(np.float32)
    return np.sqrt(y * y + np.float32(1.0)) * np.float32(2.0) - y
