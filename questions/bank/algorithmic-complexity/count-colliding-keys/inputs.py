import numpy as np

# CPython hashes a non-negative int as its value modulo this Mersenne prime, so
# every multiple of it hashes to 0 (and every negative multiple to 0 as well).
HASH_MODULUS = 2**61 - 1


def make_inputs(size, seed):
    """`size` keys, about a quarter of them distinct, every one hashing to 0."""
    rng = np.random.default_rng(seed)
    distinct = max(1, size // 4)
    multipliers = rng.choice(10**6, size=distinct, replace=False) + 1
    colliding = [int(m) * HASH_MODULUS for m in multipliers]
    picks = rng.integers(0, distinct, size=size)
    return ([colliding[i] for i in picks],)


def edge_cases():
    p = HASH_MODULUS
    return [
        ([],),
        ([42],),
        ([7, 7, 7],),
        # Negative keys, zero, and the small ints CPython hashes alike (-1 and -2).
        ([-p, p, 0, 0, -1, -2, -1, 3 * p, -(2**100), 2**100, 2**100],),
        ([5, -3, 5, 2**64, -3, 5, 0],),
    ]
