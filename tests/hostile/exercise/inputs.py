import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size),)


def edge_cases():
    return [(np.array([-0.0, 0.0, 3.0, 1e150, -1e150]),)]
