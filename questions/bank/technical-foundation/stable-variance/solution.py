import numpy as np


def mean_and_variance(x):
    # Two passes: the mean first, then squared deviations from it. Deviations are
    # small numbers, so nothing large cancels.
    mean = x.mean()
    deviations = x - mean
    return float(mean), float(np.dot(deviations, deviations) / x.size)
