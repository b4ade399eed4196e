import numpy as np

DIMENSIONS = 8


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((size, DIMENSIONS)), rng.standard_normal((size, DIMENSIONS))


def edge_cases():
    rng = np.random.default_rng(3)
    points = rng.standard_normal((5, 3))
    return [
        (np.zeros((0, 3)), points),
        (points, np.zeros((0, 3))),
        (np.zeros((4, 0)), np.zeros((2, 0))),
        (np.array([[1.5]]), np.array([[-0.5]])),
        (points, points.copy()),  # zero diagonal: coincident points
        (rng.standard_normal((7, 2)), rng.standard_normal((3, 2))),
    ]
