"""Sleep forever: no CPU used, so only a wall-clock limit stops it."""
import time


def transform(x):
    time.sleep(10**6)
