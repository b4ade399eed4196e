"""Honest but hungry: from import on, keep the runner's resident memory at 95%
of the exercise's memory limit (touched, held between calls), then answer
correctly. Within its limit, this must be accepted with an honest speedup: the
memory it holds may neither get the reference killed nor slow its calls."""

import typing


def _real_builtins(
    hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']",
):
    """The import allow-list is a policy, not the boundary (see exhaust_disk_fill.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r"""
import os
import sys

import numpy as np

SHARE = 0.95
try:  # the runner's command line names the limit (runner.py: ... TARGET MEMORY_LIMIT ...)
    _limit = int(sys.argv[6])
except (IndexError, ValueError):
    _limit = 512 * 1024**2
with open("/proc/self/statm") as _statm:
    _resident = int(_statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
HELD = np.ones(max(0, int(SHARE * _limit) - _resident) // 8)  # np.ones writes every page


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
"""
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
