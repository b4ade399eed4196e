import numpy as np


def make_inputs(size, seed):
    """`size` host arrays (at most 64) of 64 to 2048 float32 values each.

    They arrive as one tuple argument, which the grader leaves in host memory
    (it only copies top-level NumPy arguments to the GPU)."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(64, 2049, size=size)
    return (tuple(rng.standard_normal(int(length), dtype=np.float32) for length in lengths),)


def edge_cases():
    f32 = np.float32
    return [
        ((),),
        ((np.zeros(0, dtype=f32),),),
        ((np.array([1.5], dtype=f32),),),
        ((np.zeros(0, dtype=f32), np.array([np.nan, np.inf, -0.0], dtype=f32), np.zeros(0, dtype=f32)),),
        (tuple(np.arange(n, dtype=f32) for n in range(7)),),
    ]
