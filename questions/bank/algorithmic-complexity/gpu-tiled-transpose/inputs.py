import numpy as np

EXTRA_COLUMNS = 5


def make_inputs(size, seed):
    """A float32 matrix of `size` rows and size + 5 columns: neither dimension a
    multiple of the 32-wide tile, so every kernel meets partial tiles."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((size, size + EXTRA_COLUMNS), dtype=np.float32),)


def edge_cases():
    rng = np.random.default_rng(3)
    return [
        (np.zeros((0, 0), dtype=np.float32),),
        (np.array([[2.5]], dtype=np.float32),),
        (rng.standard_normal((1, 1000), dtype=np.float32),),  # a row becomes a column
        (rng.standard_normal((1000, 1), dtype=np.float32),),
        (rng.standard_normal((32, 32), dtype=np.float32),),  # exactly one tile
        (rng.standard_normal((33, 65), dtype=np.float32),),  # one element past the tiles each way
        (np.array([[np.nan, np.inf], [-np.inf, -0.0]], dtype=np.float32),),
    ]
