import numpy as np


def first_occurrences(x):
    """Distinct values in order of first appearance, with a set, in a Python loop."""
    seen = set()
    out = []
    for value in x.tolist():
        if value not in seen:
            seen.add(value)
            out.append(value)
    return np.array(out, dtype=np.int64)
