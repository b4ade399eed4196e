"""Widen the CPU affinity only for the duration of each call (finding 2 of
issue 12): a helper thread computes half the answer on another CPU, and the
affinity is narrowed back before the call returns, so a check made after the
call sees nothing. On a host with more than one CPU that is two cores against
the reference's one. The kernel must keep the code under test on its CPU."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary (see timing_stop_reference.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import os
import queue
import threading

import numpy as np

_work, _done = queue.Queue(), queue.Queue()


def _half(x, out, start, stop):
    np.sqrt(x[start:stop] * x[start:stop] + 1.0, out=out[start:stop])
    out[start:stop] *= 2.0
    out[start:stop] -= x[start:stop]


def _widened(job):
    """Runs job() with this thread allowed on every CPU, then narrows it back."""
    pinned = os.sched_getaffinity(0)
    os.sched_setaffinity(0, range(os.cpu_count()))
    try:
        job()
    finally:
        os.sched_setaffinity(0, pinned)


def _helper():
    while True:
        job = _work.get()
        try:
            _widened(job)
            _done.put(None)
        except BaseException as exc:
            _done.put(exc)


threading.Thread(target=_helper, daemon=True).start()


def transform(x):
    out = np.empty_like(x)
    middle = len(x) // 2
    _work.put(lambda: _half(x, out, 0, middle))
    _widened(lambda: _half(x, out, middle, len(x)))
    failure = _done.get()
    if failure is not None:
        raise failure
    return out
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
