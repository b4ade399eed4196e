"""A helper thread started at import does each call's work while the main
thread yields the CPU to it, then sleeps a while: the main thread waits for
the CPU as long as the helper runs. A grader that took all of a call's wait
off its time would time little more than nothing; what may come off is at
most the time no thread of the tree was on the CPU, here the sleep, so the
work is still timed."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import os
import threading
import time

import numpy as np

#: The work, however long, is what the helper hides: here the chain computed this many times.
ROUNDS = 40


def _chain(x):
    for _ in range(ROUNDS - 1):
        np.sqrt(x * x + 1.0) * 2.0 - x
    return np.sqrt(x * x + 1.0) * 2.0 - x

_request = threading.Event()
_box = []
_work = []


def _helper():
    while True:
        _request.wait()
        _request.clear()
        x = _work.pop()
        _box.append(_chain(x))


threading.Thread(target=_helper, daemon=True).start()


def transform(x):
    _work.append(x)
    _request.set()
    while not _box:
        os.sched_yield()
    time.sleep(0.002)
    return _box.pop()
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
