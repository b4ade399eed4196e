import numpy as np


def make_inputs(size, seed):
    """A noisy signal of order 1 and a window that grows with the data (n / 1000)."""
    rng = np.random.default_rng(seed)
    x = np.sin(np.arange(size) / 500.0) + rng.standard_normal(size)
    return x, max(1, size // 1000)


def edge_cases():
    ramp = np.arange(7, dtype=np.float64)
    return [
        (np.empty(0), 1),
        (np.empty(0), 3),
        (np.array([2.5]), 1),
        (np.array([2.5]), 2),
        (ramp, 1),
        (ramp, 3),
        (ramp, 7),
        (ramp, 8),
        (np.array([-0.0, 0.0, -0.0]), 2),
    ]
