import numpy as np


def make_inputs(size, seed):
    """`size` bytes, skewed like image intensities: half of them are 0."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, size=size, dtype=np.uint8)
    x[rng.random(size) < 0.5] = 0
    return (x,)


def edge_cases():
    return [
        (np.zeros(0, dtype=np.uint8),),
        (np.zeros(5, dtype=np.uint8),),  # only the value 0: still 256 bins
        (np.array([255], dtype=np.uint8),),
        (np.arange(256, dtype=np.uint8),),
    ]
