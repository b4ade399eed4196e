import numpy as np


def make_inputs(size, seed):
    """A size x size image of values in [0, 1) and a radius that grows with it
    (k = 2r + 1 = 5, 9, 17 at 256, 512, 1024)."""
    rng = np.random.default_rng(seed)
    return rng.random((size, size)), max(1, size // 128)


def edge_cases():
    image = np.arange(20.0).reshape(4, 5)
    return [
        (np.zeros((0, 0)), 0),
        (np.array([[2.5]]), 0),  # radius 0: the image itself
        (np.array([[2.5]]), 1),  # window larger than the image
        (image, 1),
        (image, 2),  # rows == k: a single output row
        (np.ascontiguousarray(image.T), 1),
        (np.full((6, 7), -3.25), 2),
    ]
