"""One enormous stdout line with no newline at all, then a correct answer:
a line-based reader on the host must not buffer it without bound."""
import os

import numpy as np

_CHUNK = b"A" * (1024 * 1024)
for _ in range(200):
    try:
        os.write(1, _CHUNK)
    except OSError:
        break


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
