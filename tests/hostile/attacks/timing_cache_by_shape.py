"""Compute once per shape and return the same array for every later call of
that shape. Right only if the harness feeds identical inputs and checks just
one call's output; otherwise it must be caught as a wrong answer."""
import numpy as np

_cache = {}


def transform(x):
    if x.shape not in _cache:
        _cache[x.shape] = np.sqrt(x * x + 1.0) * 2.0 - x
    return _cache[x.shape]
