import numpy as np

#: About 5,000 values a segment: some 3,200 segments at 16 million values.
MEAN_SEGMENT = 5000


def _offsets(n, segments, rng):
    """CSR-style offsets: `segments + 1` sorted boundaries from 0 to n (repeats are empty segments)."""
    cuts = np.sort(rng.integers(0, n + 1, size=segments - 1))
    return np.concatenate(([0], cuts, [n])).astype(np.int64)


def make_inputs(size, seed):
    """`size` int32 values in [0, 1000] cut into segments of about 5,000 values at random
    boundaries (at least two segments, so small sizes have empty ones too)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 1001, size=size, dtype=np.int32)
    return (x, _offsets(size, max(2, size // MEAN_SEGMENT), rng))


def edge_cases():
    i32, i64 = np.int32, np.int64
    return [
        (np.zeros(0, dtype=i32), np.zeros(1, dtype=i64)),  # no segments at all
        (np.zeros(0, dtype=i32), np.zeros(3, dtype=i64)),  # two empty segments
        (np.array([7], dtype=i32), np.array([0, 1], dtype=i64)),
        # empty segments first, in the middle and last
        (np.arange(1, 11, dtype=i32), np.array([0, 0, 3, 3, 3, 7, 10, 10], dtype=i64)),
        (np.full(1000, 1000, dtype=i32), np.arange(1001, dtype=i64)),  # every segment one value
        # one segment of 3 million values of 1000: its total, 3e9, is past int32
        (np.full(3_000_000, 1000, dtype=i32), np.array([0, 3_000_000], dtype=i64)),
        (np.full(3_000_000, 1000, dtype=i32), np.array([0, 1, 2_999_999, 3_000_000], dtype=i64)),
    ]
