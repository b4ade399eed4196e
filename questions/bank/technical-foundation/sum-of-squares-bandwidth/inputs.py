import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1.0, 1.0, size),)


def edge_cases():
    return [
        (np.array([], dtype=np.float64),),
        (np.array([-3.0]),),
        (np.array([1e150, -1e-150, 0.0, -0.0, 5e-324]),),
        (np.full(1_000_001, 0.1),),  # one value everywhere: the order of the adds shows in the last digits only
        (np.arange(7.0),),
    ]
