import numpy as np


def make_inputs(size, seed):
    """`size` bytes, half of them 0 (dark pixels): the skew that makes every
    thread of a naive kernel fight over one counter."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, size=size, dtype=np.uint8)
    x[rng.random(size) < 0.5] = 0
    return (x,)


def edge_cases():
    rng = np.random.default_rng(7)
    return [
        (np.zeros(0, dtype=np.uint8),),
        (np.array([255], dtype=np.uint8),),
        (np.arange(256, dtype=np.uint8),),
        (np.full(70_001, 17, dtype=np.uint8),),  # one bin takes everything, over several blocks
        (rng.integers(0, 256, size=100_003, dtype=np.uint8),),  # a tail past the last whole block
    ]
