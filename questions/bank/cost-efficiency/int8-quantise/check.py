import numpy as np

SCALE_RTOL = 1e-5  # float32 rounding of max|x| / 127
ERROR_SLACK = 1e-4  # in quantisation steps: float32 arithmetic may land a hair past s/2


def check(expected, got, args):
    (x,) = args
    _, expected_scale = expected
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return False, "return a pair (q, scale)"
    q, scale = got
    if not isinstance(q, np.ndarray) or q.dtype != np.int8:
        return False, f"q must be a numpy int8 array, got {type(q).__name__} of dtype {getattr(q, 'dtype', None)}"
    if q.shape != x.shape:
        return False, f"q has shape {q.shape}, expected {x.shape}"
    try:
        scale = float(scale)
    except (TypeError, ValueError):
        return False, f"scale must be a number, got {type(scale).__name__}"
    if not np.isfinite(scale) or scale <= 0:
        return False, f"scale must be positive and finite, got {scale!r}"
    if abs(scale - expected_scale) > SCALE_RTOL * expected_scale:
        return False, f"scale is {scale!r}, expected max|x|/127 = {expected_scale!r}"
    if q.size == 0:
        return True, ""
    if int(q.min()) < -127:
        return False, "q uses -128: symmetric quantisation keeps values in [-127, 127]"
    error = np.abs(q.astype(np.float64) * scale - x.astype(np.float64))
    worst = int(np.argmax(error))
    if error[worst] > scale * (0.5 + ERROR_SLACK):
        return False, (
            f"x[{worst}] = {float(x[worst])!r} quantised to {int(q[worst])} * {scale!r}: "
            f"error {float(error[worst])!r} exceeds half a step ({scale / 2!r})"
        )
    return True, ""
