import numpy as np


def make_inputs(size, seed):
    """The arguments of one call at `size`, fresh for every seed (never cached by the harness)."""
    return (np.random.default_rng(seed).standard_normal(size),)
