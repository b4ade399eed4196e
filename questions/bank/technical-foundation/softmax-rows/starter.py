import numpy as np


def softmax_rows(z):
    """Return the softmax of each row of `z`.

    z: 2-D float64 array of shape (n, d) with d >= 1 and finite values (n may be 0);
    do not modify it. Result: a new float64 array of the same shape whose row i is
    exp(z[i]) / exp(z[i]).sum(), computed without overflow.
    This is the reference: a loop over rows. Make it fast.
    """
    out = np.empty_like(z)
    for i in range(z.shape[0]):
        row = z[i]
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out
