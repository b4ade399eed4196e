import numpy as np


def make_inputs(size, seed):
    """A size x size matrix with 0 to 16 entries per row (about 8 on average, one row
    in 17 empty), at random columns, and a random x."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 17, size=size)
    indptr = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    nnz = int(indptr[-1])
    indices = rng.integers(0, max(size, 1), size=nnz).astype(np.int32)
    data = rng.standard_normal(nnz)
    x = rng.standard_normal(size)
    return indptr, indices, data, x


def edge_cases():
    i64, i32 = np.int64, np.int32
    return [
        # No rows at all.
        (np.zeros(1, dtype=i64), np.zeros(0, dtype=i32), np.zeros(0), np.zeros(3)),
        # Rows but no entries.
        (np.zeros(4, dtype=i64), np.zeros(0, dtype=i32), np.zeros(0), np.ones(2)),
        # Empty rows first, in the middle and last; a repeated column within a row.
        (
            np.array([0, 0, 2, 2, 5, 5], dtype=i64),
            np.array([1, 0, 2, 2, 0], dtype=i32),
            np.array([1.0, 2.0, 3.0, 4.0, -1.0]),
            np.array([10.0, 20.0, 30.0]),
        ),
        # One dense row against a wide x.
        (np.array([0, 3], dtype=i64), np.array([4, 0, 2], dtype=i32), np.array([0.5, -2.0, 1.0]), np.arange(5.0)),
    ]
