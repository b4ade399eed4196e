import numpy as np

COLUMNS = 1000  # not a multiple of 32: every warp's last pass over a row is partial


def make_inputs(size, seed):
    """`size` float32 rows of 1000 columns (embeddings to normalise)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((size, COLUMNS), dtype=np.float32),)


def edge_cases():
    rng = np.random.default_rng(5)
    return [
        (np.zeros((0, COLUMNS), dtype=np.float32),),
        (np.array([[-3.0]], dtype=np.float32),),  # one column: lane 0 alone holds data
        (rng.standard_normal((9, 31), dtype=np.float32),),  # fewer columns than lanes
        (rng.standard_normal((5, 33), dtype=np.float32),),  # one column past a warp
        (np.zeros((3, 64), dtype=np.float32),),
        (np.array([[3.0, 4.0] + [0.0] * 62, [1e20, 0.0] + [0.0] * 62], dtype=np.float32),),  # 5; inf
    ]
