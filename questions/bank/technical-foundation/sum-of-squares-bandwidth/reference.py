from numba import njit


@njit(cache=False)
def sum_of_squares(x):
    """Sum of x[i] ** 2 in index order, in one float64 accumulator, on one thread."""
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * x[i]
    return total
