import numpy as np


def make_inputs(size, seed):
    """A random walk of `size` values; the window grows with the data, w = size / 1000."""
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.standard_normal(size)), max(1, size // 1000)


def edge_cases():
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0])
    return [
        (np.zeros(0), 1),
        (np.array([2.5]), 1),
        (np.array([2.5]), 2),  # window longer than the data
        (x, 1),
        (x, 3),  # 10 is not a multiple of 3
        (x, 5),
        (x, 10),
        (x[::-1].copy(), 4),  # decreasing tail
        (np.array([-1e300, -np.inf, 7.0, -0.0]), 2),
    ]
