"""An object that is not an array but exposes __array_interface__ over a
buffer of zeros, and answers == with True."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


class Impostor:
    def __init__(self, n):
        self._buffer = np.zeros(n)
        setattr(self, "__array_interface__", getattr(self._buffer, "__array_interface__"))
        self.shape = (n,)
        self.dtype = np.dtype(np.float64)

    def __eq__(self, other):
        return True

    def __len__(self):
        return self.shape[0]


def transform(x):
    return Impostor(len(x))
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
