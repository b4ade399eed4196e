import numpy as np


def make_inputs(size, seed):
    """Weight-like values: mostly small, a few larger outliers set the scale."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size, dtype=np.float32) * np.float32(0.05)
    if size:
        outliers = rng.integers(0, size, size=max(1, size // 10000))
        x[outliers] *= np.float32(20.0)
    return (x,)


def edge_cases():
    f32 = np.float32
    return [
        (np.array([], dtype=f32),),
        (np.array([0.0], dtype=f32),),
        (np.zeros(7, dtype=f32),),
        (np.array([-3.5], dtype=f32),),
        (np.array([-0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 127.0], dtype=f32),),
        # Values exactly half a step apart exercise rounding ties.
        (np.arange(-127.5, 128.0, 0.5, dtype=f32),),
        (np.array([3.0e38, -3.0e38, 1.0e-38, -1.0e-45], dtype=f32),),
    ]
