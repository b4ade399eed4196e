"""An object that is not an array but exposes __array_interface__ over a
buffer of zeros, and answers == with True."""
import numpy as np


class Impostor:
    def __init__(self, n):
        self._buffer = np.zeros(n)
        self.__array_interface__ = self._buffer.__array_interface__
        self.shape = (n,)
        self.dtype = np.dtype(np.float64)

    def __eq__(self, other):
        return True

    def __len__(self):
        return self.shape[0]


def transform(x):
    return Impostor(len(x))
