import numpy as np

OFFSET = 1.0e9


def make_inputs(size, seed):
    """Readings of about 1e9 with a standard deviation of 1: mean^2 / variance is 1e18,
    so E[x^2] - E[x]^2 cancels every significant digit."""
    rng = np.random.default_rng(seed)
    return (OFFSET + rng.standard_normal(size),)


def edge_cases():
    return [
        (np.array([OFFSET + 0.5]),),  # one value: variance 0
        (np.array([1.0, 3.0]),),
        (np.full(7, OFFSET + 0.25),),  # constant: variance 0
        (np.array([-2.0, 0.0, 2.0, 1e-3]),),
        (np.linspace(-1e6, 1e6, 11),),
    ]
