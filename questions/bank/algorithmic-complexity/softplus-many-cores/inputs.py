import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-20.0, 20.0, size),)


def edge_cases():
    return [
        (np.array([], dtype=np.float64),),
        (np.array([0.0]),),
        (np.array([-0.0, 1e-300, -1e-300, 36.0, -36.0, 700.0, -745.0, 1e308, -1e308]),),
        (np.linspace(-5.0, 5.0, 7),),
    ]
