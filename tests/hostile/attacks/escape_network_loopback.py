"""Reach the host's Redis (6379) and PostgreSQL (5432) over loopback.

The sandbox has its own network namespace: 127.0.0.1 inside is not the host's,
so both connections must fail. Only harmless bytes are sent (PING)."""
import numpy as np


def _load(name):
    """Import past an import allow-list, as a determined attacker would."""
    try:
        return __import__(name)
    except BaseException:
        pass
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":  # os._wrap_close: its globals are the os module's
            sys = cls.__init__.__globals__["sys"]
            if name in sys.modules:
                return sys.modules[name]
            return sys.modules["_frozen_importlib"]._gcd_import(name)
    raise ImportError(name)


def _probe():
    socket = _load("socket")
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
