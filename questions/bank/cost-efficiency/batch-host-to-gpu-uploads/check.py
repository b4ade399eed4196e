import numpy as np


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
    # Copies are exact: compare bit patterns, so NaN and -0.0 must come through unchanged.
    mismatched = np.flatnonzero(want.view(np.uint32) != have.view(np.uint32))
    if mismatched.size:
        index = int(mismatched[0])
        return False, f"element {index} is {have[index]!r}, expected {want[index]!r}"
    return True, ""
