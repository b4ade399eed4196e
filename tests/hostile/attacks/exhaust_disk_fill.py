"""Fill the writable tmpfs until it is full, keep it full, then answer
correctly. The cap must hold (the host disk untouched) and the harness must
not fall over because /tmp is full."""
import numpy as np

_written = 0
try:
    with open("/tmp/fill", "wb") as handle:
        chunk = b"\xff" * (1024 * 1024)
        while _written < 4 * 1024**3:
            handle.write(chunk)
            _written += len(chunk)
except OSError:
    pass


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
