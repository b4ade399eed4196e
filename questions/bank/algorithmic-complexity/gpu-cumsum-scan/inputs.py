import numpy as np


def make_inputs(size, seed):
    """`size` int32 values in [0, 1000]: at 16 million the total is about 8e9, past int32."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 1001, size=size, dtype=np.int32),)


def edge_cases():
    i32 = np.int32
    return [
        (np.zeros(0, dtype=i32),),
        (np.array([7], dtype=i32),),
        (np.full((1 << 14) + 1, 1000, dtype=i32),),  # one chunk and one value
        (np.full(3_000_000, 1000, dtype=i32),),  # 3e9: past int32
    ]
