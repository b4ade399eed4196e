import numpy as np


def make_inputs(size, seed):
    """`size` float32 values, about half of them positive."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size, dtype=np.float32),)


def edge_cases():
    f32 = np.float32
    return [
        (np.zeros(0, dtype=f32),),
        (np.array([-1.0, -0.0, 0.0], dtype=f32),),  # nothing survives
        (np.array([np.nan, np.inf, -np.inf, 1e-45, 2.0], dtype=f32),),
        (np.arange(1, 8, dtype=f32),),  # everything survives
    ]
