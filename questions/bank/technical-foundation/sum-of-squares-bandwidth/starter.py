from numba import njit


@njit(cache=False)
def sum_of_squares(x):
    """Return the sum of x[i] ** 2 over a 1-D float64 array of finite values, as a float.

    `x` may be empty (the sum is then 0.0) and must not be modified. The result
    may differ from an exact sum by rounding only (relative 1e-9). This is the
    reference: one accumulator, in index order, on one thread. The grader gives
    your code two CPUs.
    """
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * x[i]
    return total
