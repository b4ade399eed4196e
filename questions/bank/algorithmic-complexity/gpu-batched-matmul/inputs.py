import numpy as np

N = K = M = 32


def make_inputs(size, seed):
    """`size` pairs of 32 x 32 float32 matrices (host arrays; the grader copies them to the GPU)."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((size, N, K), dtype=np.float32), rng.standard_normal((size, K, M), dtype=np.float32)


def edge_cases():
    f32 = np.float32
    rng = np.random.default_rng(0)
    return [
        (np.zeros((0, N, K), dtype=f32), np.zeros((0, K, M), dtype=f32)),
        (np.ones((1, 1, 1), dtype=f32), np.full((1, 1, 1), 3.0, dtype=f32)),
        (rng.standard_normal((3, 2, 5), dtype=f32), rng.standard_normal((3, 5, 4), dtype=f32)),  # not square
    ]
