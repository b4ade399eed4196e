import numpy as np


def make_inputs(size, seed):
    """`size` host arrays of 16 to 512 float32 values each."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(16, 513, size=size)
    return ([rng.standard_normal(int(length), dtype=np.float32) for length in lengths],)


def edge_cases():
    f32 = np.float32
    return [
        ([],),
        ([np.zeros(0, dtype=f32)],),
        ([np.array([1.5], dtype=f32)],),
        ([np.zeros(0, dtype=f32), np.array([np.nan, np.inf, -0.0], dtype=f32), np.zeros(0, dtype=f32)],),
        ([np.arange(n, dtype=f32) for n in range(7)],),
    ]
