from collections import deque

import numpy as np


def rolling_max(x, w):
    n = len(x)
    if w > n:
        return np.empty(0)
    values = x.tolist()
    out = []
    window = deque()
    for i in range(n):
        value = values[i]
        while window and values[window[-1]] <= value:
            window.pop()
        window.append(i)
        if window[0] == i - w:
            window.popleft()
        if i + 1 >= w:
            out.append(values[window[0]])
    return np.array(out, dtype=np.float64)
