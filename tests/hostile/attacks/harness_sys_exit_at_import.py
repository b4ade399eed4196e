"""Raise SystemExit(0) while being imported: a clean-looking exit before any call."""
import sys

sys.exit(0)


def transform(x):
    return x
