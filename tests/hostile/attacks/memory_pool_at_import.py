"""Hide memory by allocating it before the first call (finding 3 of issue 12):
a 96 MB scratch pool made resident at import and written by every call. The
baseline was the lowest resident memory seen before any call, so the pool was
never counted (python-loop-to-numpy reported 51 MB against 160+ MB used).
Memory the submission's module holds must count against it."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary (see timing_stop_reference.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

POOL = np.ones(96 * 1024 * 1024 // 8)


def transform(x):
    scratch = POOL[: len(x)]
    np.multiply(x, x, out=scratch)
    scratch += 1.0
    np.sqrt(scratch, out=scratch)
    POOL[len(x):] += 0.0  # the whole pool is the submission's working set
    return scratch * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
