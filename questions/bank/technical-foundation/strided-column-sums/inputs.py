import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((size, size)),)


def edge_cases():
    tall = np.arange(21, dtype=np.float64).reshape(7, 3)
    special = np.array([[np.nan, np.inf, np.inf, -0.0], [1.0, 1.0, -np.inf, -0.0], [2.0, -1.0, 0.0, -0.0]])
    return [
        (np.zeros((0, 0)),),
        (np.zeros((5, 0)),),
        (np.zeros((0, 4)),),
        (np.array([[2.5]]),),
        (tall,),
        (np.ascontiguousarray(tall.T),),
        (special,),
    ]
