import numpy as np


def parse_ints(buf):
    """Parse comma-separated decimal integers.

    buf: 1-D uint8 array holding ASCII text such as b"12,-7,9000000000000000000"
         (as np.fromfile would read it): optional minus sign, digits, single commas,
         no spaces, no trailing comma; empty means no numbers. Every value fits in
         int64. Do not modify it.
    Result: a new int64 array of the numbers, in order.
    This is the reference: one Python int() per token. Make it fast.
    """
    text = buf.tobytes()
    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.array([int(token) for token in text.split(b",")], dtype=np.int64)
