import numpy as np

COLUMNS = 8192


def make_inputs(size, seed):
    """`size` rows of 8192 float32 values in [0, 1): few, long rows."""
    rng = np.random.default_rng(seed)
    return (rng.random((size, COLUMNS), dtype=np.float32),)


def edge_cases():
    rng = np.random.default_rng(19)
    f32 = np.float32
    return [
        (np.zeros((0, COLUMNS), dtype=f32),),
        (np.array([[4.5]], dtype=f32),),
        (rng.random((1, 100_000), dtype=f32),),  # one very long row
        (rng.random((9, 3), dtype=f32),),  # more rows than columns
        (rng.random((3, 1025), dtype=f32),),  # one column past a chunk
    ]
