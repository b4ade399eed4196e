"""Monkeypatch the NumPy functions the reference uses (sqrt, multiply, add,
subtract) so each call sleeps first, while keeping the originals for itself.
If the reference ran in this process it would be slowed into a fake speedup."""
import time

import numpy as np

_sqrt = np.sqrt


def _slow(function):
    def slowed(*args, **kwargs):
        time.sleep(0.05)
        return function(*args, **kwargs)

    return slowed


for name in ("sqrt", "multiply", "add", "subtract"):
    setattr(np, name, _slow(getattr(np, name)))


def transform(x):
    out = x * x  # operators use the C ufuncs directly, not the patched module attributes
    out += 1.0
    return _sqrt(out) * 2.0 - x
