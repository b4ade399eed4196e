import numpy as np

RTOL = 1e-7
ATOL = 1e-9


def check(expected, got, args):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return False, "return a pair (P_new, Q_new)"
    for name, want, have in zip(("P_new", "Q_new"), expected, got):
        if not isinstance(have, np.ndarray):
            return False, f"{name} must be a numpy array, got {type(have).__name__}"
        if have.shape != want.shape or have.dtype != want.dtype:
            return False, f"{name} is {have.dtype} {have.shape}, expected {want.dtype} {want.shape}"
        close = np.isclose(have, want, rtol=RTOL, atol=ATOL)
        if not close.all():
            row, col = np.argwhere(~close)[0]
            return False, f"{name}[{row}, {col}] is {have[row, col]!r}, expected {want[row, col]!r}"
    return True, ""
