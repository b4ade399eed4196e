"""Block forever reading stdin (and, if that returns, an empty pipe of its own)."""
import os
import sys


def transform(x):
    sys.stdin.read()
    read_end, _write_end = os.pipe()
    os.read(read_end, 1)
