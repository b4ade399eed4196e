# Wrong on purpose (for the throughput mix): forgets the "+ 1".
import numpy as np


def transform(x):
    return np.square(x * 2.0)
