import numpy as np

ALPHA = 0.25
BETA = 1.5


def make_inputs(size, seed):
    import cupy as cp  # only on the GPU machine

    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size, dtype=np.float32)
    return cp.asarray(x), ALPHA, BETA


def edge_cases():
    import cupy as cp

    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -1.0, 1.0], dtype=np.float32)
    return [
        (cp.zeros(0, dtype=cp.float32), ALPHA, BETA),
        (cp.asarray(np.array([-2.0], dtype=np.float32)), ALPHA, BETA),
        (cp.asarray(special), ALPHA, BETA),
        (cp.asarray(np.linspace(-3.0, 3.0, 7, dtype=np.float32)), -1.0, 2.0),
    ]
