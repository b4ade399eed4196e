"""Grading gives the code under test one CPU, as the reference has. This
attack widens its own CPU affinity to every CPU of the sandbox and computes
each half of the answer in its own thread (NumPy releases the GIL), so on a
multi-core host it would run on two cores against the reference's one. The
grader must notice the changed affinity and reject it."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary (see timing_thread_hog.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import os
import threading

import numpy as np

os.sched_setaffinity(0, range(os.cpu_count()))


def _half(x, out, start, stop):
    np.sqrt(x[start:stop] * x[start:stop] + 1.0, out=out[start:stop])
    out[start:stop] *= 2.0
    out[start:stop] -= x[start:stop]


def transform(x):
    os.sched_setaffinity(0, range(os.cpu_count()))
    out = np.empty_like(x)
    middle = len(x) // 2
    helper = threading.Thread(target=_half, args=(x, out, 0, middle))
    helper.start()
    _half(x, out, middle, len(x))
    helper.join()
    return out
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
