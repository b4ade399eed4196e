import numpy as np


def make_inputs(size, seed):
    """`size` sorted values and `size` queries on a grid of 1/4, so queries often equal values."""
    rng = np.random.default_rng(seed)
    values = np.sort(rng.integers(0, 4 * size + 1, size=size) / 4.0)
    queries = rng.integers(-8, 4 * size + 9, size=size) / 4.0
    return values, queries


def edge_cases():
    values = np.array([1.0, 2.0, 2.0, 2.0, 5.0])
    return [
        (np.zeros(0), np.array([1.0, -1.0])),
        (values, np.zeros(0)),
        (values, np.array([2.0, 1.999, 0.0, 5.0, 7.0, -np.inf, np.inf])),
        (np.array([-0.0, 0.0]), np.array([0.0, -0.0])),
    ]
