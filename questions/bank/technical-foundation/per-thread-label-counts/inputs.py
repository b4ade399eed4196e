import numpy as np

NUM_LABELS = 8


def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, NUM_LABELS, size, dtype=np.int8),)


def edge_cases():
    # Odd lengths, so no split into threads or chunks comes out even; one label
    # everywhere, so every increment of every thread hits the same counter.
    return [
        (np.array([], dtype=np.int8),),
        (np.array([5], dtype=np.int8),),
        (np.arange(NUM_LABELS, dtype=np.int8),),
        (np.full(4_000_001, 7, dtype=np.int8),),
        (np.tile(np.array([0, 7], dtype=np.int8), 50_001)[:-1],),
    ]
