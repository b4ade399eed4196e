import numpy as np


def _encode(values):
    text = ",".join(map(str, values)).encode("ascii")
    return np.frombuffer(text, dtype=np.uint8).copy()


def make_inputs(size, seed):
    """`size` integers: half small (up to 5 digits), half anywhere in int64's range,
    so a parse through float64 (exact only below 2**53) loses digits."""
    rng = np.random.default_rng(seed)
    small = rng.integers(-99_999, 100_000, size=size)
    large = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=size, endpoint=True)
    values = np.where(rng.random(size) < 0.5, small, large)
    return (_encode(values.tolist()),)


def edge_cases():
    extremes = [np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0, -1, 2**53 + 1]
    return [
        (np.zeros(0, dtype=np.uint8),),
        (_encode([7]),),
        (_encode([-0]),),
        (_encode(extremes),),
        (_encode([10**k for k in range(19)]),),
    ]
