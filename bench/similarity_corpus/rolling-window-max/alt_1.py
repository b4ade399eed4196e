from collections import deque

import numpy as np


def rolling_max(x, w):
    n = len(x)
    if w > n:
        return np.empty(0)
    values = x.tolist()
    result = np.empty(n - w + 1)
    window = deque()
    for i, value in enumerate(values):
        while window and values[window[-1]] <= value:
            window.pop()
        window.append(i)
        if window[0] <= i - w:
            window.popleft()
        if i >= w - 1:
            result[i - w + 1] = values[window[0]]
    return result
