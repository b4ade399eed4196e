from numba import njit, prange


# reassoc lets LLVM keep several partial sums in vector registers; without it
# every add waits for the previous one and one core never reaches memory speed.
@njit(parallel=True, fastmath={"reassoc"}, cache=False)
def sum_of_squares(x):
    total = 0.0
    for i in prange(x.shape[0]):
        total += x[i] * x[i]  # prange reduction: a private sum per thread
    return total
