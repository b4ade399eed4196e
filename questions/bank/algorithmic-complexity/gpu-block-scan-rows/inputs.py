import numpy as np

COLUMNS = 1000  # one row fits one block of 1 024 threads, the last warp partly idle

INT32 = np.iinfo(np.int32)


def make_inputs(size, seed):
    """`size` rows of 1000 int32 values drawn from the whole int32 range: a row's
    running total leaves the int32 range within a few elements."""
    rng = np.random.default_rng(seed)
    return (rng.integers(INT32.min, INT32.max, size=(size, COLUMNS), dtype=np.int32, endpoint=True),)


def edge_cases():
    rng = np.random.default_rng(11)
    return [
        (np.zeros((0, COLUMNS), dtype=np.int32),),
        (np.array([[-7]], dtype=np.int32),),
        (np.full((2, 1024), INT32.max, dtype=np.int32),),  # the widest row: 1024 * (2**31 - 1)
        (np.full((3, 33), INT32.min, dtype=np.int32),),
        (rng.integers(-5, 6, size=(6, 31), dtype=np.int32),),  # fewer columns than a warp
        (np.ones((4, 64), dtype=np.int32),),  # 1, 2, ..., 64: an off-by-one shows at once
    ]
