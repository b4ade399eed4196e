import numpy as np


def parse_ints(buf):
    """Comma-separated decimal integers -> int64 array, one Python int per token."""
    text = buf.tobytes()
    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.array([int(token) for token in text.split(b",")], dtype=np.int64)
