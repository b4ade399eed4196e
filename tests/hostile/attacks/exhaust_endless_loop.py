"""Spin forever inside the entry point."""


def transform(x):
    while True:
        pass
