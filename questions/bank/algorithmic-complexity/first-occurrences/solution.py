import numpy as np


def first_occurrences(x):
    # np.unique sorts the values and reports where each first occurs; putting those
    # positions back in increasing order restores the order of appearance.
    _, first_index = np.unique(x, return_index=True)
    return x[np.sort(first_index)]
