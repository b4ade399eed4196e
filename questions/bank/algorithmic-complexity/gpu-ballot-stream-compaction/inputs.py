import numpy as np


def make_inputs(size, seed):
    """`size` float32 values, about half of them positive."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size, dtype=np.float32),)


def edge_cases():
    f32 = np.float32
    rng = np.random.default_rng(13)
    return [
        (np.zeros(0, dtype=f32),),
        (np.array([-1.0, -0.0, 0.0], dtype=f32),),  # nothing survives
        # The smallest normal float32, not a subnormal: a GPU kernel may flush subnormals to zero.
        (np.array([np.nan, np.inf, -np.inf, np.finfo(f32).tiny, 2.0], dtype=f32),),
        (np.arange(1, 5000, dtype=f32),),  # everything survives, over several blocks
        (rng.standard_normal(4097, dtype=f32),),  # a tail of one element past two whole tiles
    ]
