import numpy as np


def make_inputs(size, seed):
    """A (size, size + 3) float32 matrix and a (size + 3, size + 1) one: no dimension
    a multiple of a tile, so every kernel meets partial tiles on all three."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((size, size + 3), dtype=np.float32)
    b = rng.standard_normal((size + 3, size + 1), dtype=np.float32)
    return a, b


def edge_cases():
    rng = np.random.default_rng(17)
    f32 = np.float32
    return [
        (np.zeros((2, 0), dtype=f32), np.zeros((0, 3), dtype=f32)),  # k = 0: a matrix of zeros
        (np.array([[2.0]], dtype=f32), np.array([[-3.0]], dtype=f32)),
        (rng.standard_normal((1, 70), dtype=f32), rng.standard_normal((70, 1), dtype=f32)),  # a dot product
        (rng.standard_normal((32, 32), dtype=f32), rng.standard_normal((32, 32), dtype=f32)),  # one whole tile
        (rng.standard_normal((33, 65), dtype=f32), rng.standard_normal((65, 31), dtype=f32)),
    ]
