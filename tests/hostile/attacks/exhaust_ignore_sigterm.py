"""Ignore every catchable signal, then spin: only SIGKILL ends it."""
import signal


for number in range(1, signal.NSIG):
    try:
        signal.signal(number, signal.SIG_IGN)
    except (OSError, RuntimeError, ValueError):
        pass


def transform(x):
    while True:
        pass
