import numpy as np


def rolling_mean(x, w):
    n = x.shape[0]
    if w > n:
        return np.empty(0)
    # prefix[j] = x[0] + ... + x[j-1]; each window sum is then one subtraction.
    prefix = np.empty(n + 1)
    prefix[0] = 0.0
    np.cumsum(x, out=prefix[1:])
    out = prefix[w:] - prefix[:-w]
    out /= w
    return out
