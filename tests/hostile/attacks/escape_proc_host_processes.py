"""List /proc for host processes (the worker, pytest, the database): with its
own PID namespace the sandbox sees only its own processes."""
import numpy as np


def _load(name):
    try:
        return __import__(name)
    except BaseException:
        pass
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            sys = cls.__init__.__globals__["sys"]
            if name in sys.modules:
                return sys.modules[name]
            return sys.modules["_frozen_importlib"]._gcd_import(name)
    raise ImportError(name)


HOST_MARKERS = (b"pytest", b"celery", b"manage.py", b"redis-server", b"postgres", b"sshd", b"systemd", b"dockerd")


def _probe():
    os = _load("os")
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ")
        except OSError:
            continue
        if any(marker in cmdline for marker in HOST_MARKERS):
            found.append(f"pid {pid}: {cmdline[:80]!r}")
    return found


_FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
