"""Double-fork a daemon in a new session that ignores SIGTERM/SIGHUP and keeps
writing to /tmp, then answer correctly. Nothing may survive the grading run."""
import os
import signal
import time

import numpy as np


def _daemonise():
    if os.fork() != 0:
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
    while True:
        try:
            with open("/tmp/daemon-alive", "w") as handle:
                handle.write(str(time.time()))
        except OSError:
            pass
        time.sleep(0.2)


_daemonise()


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
