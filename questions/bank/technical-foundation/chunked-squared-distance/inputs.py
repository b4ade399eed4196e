import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(size), rng.standard_normal(size)


def edge_cases():
    return [
        (np.zeros(0), np.zeros(0)),
        (np.array([3.0]), np.array([-1.0])),
        (np.arange(5.0), np.arange(5.0)),  # identical: exactly 0
        (np.full(40_000, 1e150), np.zeros(40_000)),  # squares near 1e300: no overflow yet
        (np.linspace(-1.0, 1.0, 70_001), np.zeros(70_001)),  # not a multiple of any power of two
    ]
