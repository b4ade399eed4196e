"""Return a memoryview of garbage (int bytes), not an array."""
import numpy as np


def transform(x):
    return memoryview(np.zeros(len(x), dtype=np.int64))
