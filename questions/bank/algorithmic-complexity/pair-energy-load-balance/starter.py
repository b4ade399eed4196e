import math

from numba import njit


@njit(cache=False)
def pair_energy(points):
    """Return the sum of 1 / |p_i - p_j| over every pair of points i < j, as a float.

    `points` is an (n, 3) float64 array (n may be 0 or 1: the sum is then 0.0)
    of distinct points. `points` must not be modified. This is the reference:
    row i meets the n - 1 - i rows after it, on one thread. The grader gives
    your code two CPUs: use them, and keep them equally busy.
    """
    n = points.shape[0]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            dz = points[i, 2] - points[j, 2]
            total += 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
    return total
