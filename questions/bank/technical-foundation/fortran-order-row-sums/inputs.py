import numpy as np


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (np.asfortranarray(rng.standard_normal((size, size))),)


def edge_cases():
    rectangular = np.asfortranarray(np.arange(21, dtype=np.float64).reshape(7, 3))
    special = np.asfortranarray(
        np.array([[np.nan, 1.0, 2.0], [np.inf, 1.0, -1.0], [np.inf, -np.inf, 0.0], [-0.0, -0.0, -0.0]])
    )
    return [
        (np.zeros((0, 0), order="F"),),
        (np.zeros((0, 5), order="F"),),
        (np.zeros((4, 0), order="F"),),
        (np.asfortranarray([[2.5]]),),
        (rectangular,),
        (np.asfortranarray(rectangular.T),),
        (special,),
    ]
