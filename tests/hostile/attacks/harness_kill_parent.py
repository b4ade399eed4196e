"""SIGKILL the parent (the harness supervisor) from inside the entry point:
no report can be printed, so the host must decide from the sandbox result."""
import os
import signal


def transform(x):
    os.kill(os.getppid(), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
