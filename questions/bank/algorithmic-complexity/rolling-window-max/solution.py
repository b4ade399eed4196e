import numpy as np


def rolling_max(x, w):
    n = x.shape[0]
    if w > n:
        return np.empty(0)
    if w == 1:
        return x.copy()
    # van Herk / Gil-Werman: cut x into blocks of w. A window starting at i covers the
    # tail of one block (a suffix maximum) and the head of the next (a prefix maximum).
    padded = np.concatenate([x, np.full(-n % w, -np.inf)])
    blocks = padded.reshape(-1, w)
    prefix = np.maximum.accumulate(blocks, axis=1).ravel()
    suffix = np.maximum.accumulate(blocks[:, ::-1], axis=1)[:, ::-1].ravel()
    return np.maximum(suffix[: n - w + 1], prefix[w - 1 : n])
