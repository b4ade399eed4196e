import math

from numba import njit


@njit(cache=False)
def pair_energy(points):
    """Sum of 1 / |p_i - p_j| over every pair i < j: row by row, on one thread."""
    n = points.shape[0]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            dz = points[i, 2] - points[j, 2]
            total += 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
    return total
