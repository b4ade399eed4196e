import numpy as np


def transform(x):
    # An unfused NumPy chain: four full-size temporaries. Honest answers land near 1x.
    return np.sqrt(x * x + 1.0) * 2.0 - x
