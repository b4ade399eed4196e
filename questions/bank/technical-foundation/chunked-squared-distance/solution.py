import numpy as np

# 32 768 doubles, 256 KiB: the block stays in L2 between the subtraction and the dot product.
BLOCK = 1 << 15


def squared_distance(x, y):
    n = x.shape[0]
    buffer = np.empty(min(n, BLOCK))
    total = 0.0
    for start in range(0, n, BLOCK):
        stop = min(start + BLOCK, n)
        block = buffer[: stop - start]
        np.subtract(x[start:stop], y[start:stop], out=block)
        total += float(np.dot(block, block))
    return total
