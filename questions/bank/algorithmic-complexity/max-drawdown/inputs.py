import numpy as np


def make_inputs(size, seed):
    """A random walk in log price (daily moves of about 1%), starting at 100."""
    rng = np.random.default_rng(seed)
    return (100.0 * np.exp(np.cumsum(rng.normal(0.0, 0.01, size=size))),)


def edge_cases():
    return [
        (np.zeros(0),),
        (np.array([5.0]),),
        (np.array([1.0, 2.0, 3.0, 4.0]),),  # never falls: 0.0
        (np.array([10.0, 4.0, 12.0, 9.0, 1.0, 50.0]),),  # the worst fall is from the later peak
        (np.array([3.0, 1.0, 2.0, 0.5]),),  # global max first, global min last
        (np.array([2.0, 8.0, 1.0, 9.0]),),  # global min before global max
    ]
