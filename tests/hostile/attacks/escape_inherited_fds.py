"""Read every open file descriptor the runner inherited (pipes to the
supervisor, the key on stdin, job files): look for the per-run key or the
expected output. Reading a command pipe may also desynchronise the runner:
the verdict must still be honest, never internal_error."""
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


def _probe():
    os = _load("os")
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
