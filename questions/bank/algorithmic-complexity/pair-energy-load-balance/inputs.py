import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.uniform(0.0, 1.0, (size, 3)),)


def edge_cases():
    line = np.zeros((5, 3))
    line[:, 0] = np.arange(5.0)  # pairs at distances 1, 2, 3, 4: a sum known exactly
    return [
        (np.zeros((0, 3)),),
        (np.array([[0.5, 0.5, 0.5]]),),
        (np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]]),),
        (line,),
        (np.random.default_rng(7).uniform(-1e3, 1e3, (101, 3)),),
    ]
