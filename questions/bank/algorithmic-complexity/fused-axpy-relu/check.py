import numpy as np

RTOL = 1e-5
ATOL = 1e-6


def check(expected, got, args):
    import cupy as cp

    if not isinstance(got, cp.ndarray):
        return False, f"return a CuPy array on the device, got {type(got).__name__}"
    if got.dtype != cp.float32:
        return False, f"the result must be float32, got {got.dtype}"
    if got.shape != expected.shape:
        return False, f"the result has shape {got.shape}, expected {expected.shape}"
    want = cp.asnumpy(expected)
    have = cp.asnumpy(got)
    close = np.isclose(have, want, rtol=RTOL, atol=ATOL, equal_nan=True)
    if close.all():
        return True, ""
    index = int(np.flatnonzero(~close)[0])
    x = cp.asnumpy(args[0])
    return False, f"at index {index} (x = {x[index]!r}): expected {want[index]!r}, got {have[index]!r}"
