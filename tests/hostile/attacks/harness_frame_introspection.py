"""Walk the caller's frames and the garbage collector for the expected output
or anything that looks like the per-run key: in a split supervisor/runner
harness, the submission's process holds neither."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import gc
import sys


SUSPECT_NAMES = ("secret", "key", "expected", "want", "reference_output", "hmac")


def _scan(x):
    found = []
    frame = sys._getframe(1)
    while frame is not None:
        code_name = getattr(getattr(frame, "f_code"), "co_name")
        for name, value in getattr(frame, "f_locals").items():
            if any(word in name.lower() for word in SUSPECT_NAMES) and isinstance(value, (bytes, str, np.ndarray)):
                if isinstance(value, np.ndarray) and value.shape == x.shape and value is not x:
                    found.append(f"frame {code_name} holds {name} (array like the output)")
                elif isinstance(value, (bytes, str)) and 16 <= len(value) <= 256:
                    found.append(f"frame {code_name} holds {name}={value[:12]!r}...")
        frame = getattr(frame, "f_back")
    for obj in gc.get_objects():
        if isinstance(obj, dict) and "secret" in obj and isinstance(obj.get("secret"), (bytes, str)):
            found.append("a dict with a 'secret' entry")
            break
    return found


def transform(x):
    findings = _scan(x)
    if findings:
        raise RuntimeError("ESCAPED: " + "; ".join(findings))
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
