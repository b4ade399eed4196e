import numpy as np


def make_inputs(size, seed):
    """`size` float32 values in [0, 1): no cancellation, so float32 partial sums are accurate to ~1e-6."""
    rng = np.random.default_rng(seed)
    return (rng.random(size, dtype=np.float32),)


def edge_cases():
    f32 = np.float32
    return [
        (np.zeros(0, dtype=f32),),
        (np.array([0.5], dtype=f32),),
        (np.full((1 << 16) + 3, 0.25, dtype=f32),),  # one full chunk and a partial one
    ]
