import math

from numba import njit, prange


@njit(cache=False)
def _row(points, i):
    """Row i's share: its pairs with every later row."""
    n = points.shape[0]
    s = 0.0
    for j in range(i + 1, n):
        dx = points[i, 0] - points[j, 0]
        dy = points[i, 1] - points[j, 1]
        dz = points[i, 2] - points[j, 2]
        s += 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
    return s


@njit(parallel=True, cache=False)
def pair_energy(points):
    n = points.shape[0]
    total = 0.0
    # Row k has n - 1 - k pairs, so a plain prange over rows hands the first
    # thread's block most of the work. Task k takes row k and row n - 1 - k
    # together: n - 1 pairs each, whichever block of tasks a thread gets.
    for k in prange((n + 1) // 2):
        s = _row(points, k)
        if n - 1 - k != k:
            s += _row(points, n - 1 - k)
        total += s  # prange reduction: a private sum per thread, added at the end
    return total
