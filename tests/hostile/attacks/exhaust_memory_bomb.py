"""Allocate and touch memory until the memory cap kills it."""
_hoard = []


def transform(x):
    while True:
        _hoard.append(bytearray(64 * 1024 * 1024))  # zero-filled by the kernel on touch
        _hoard[-1][::4096] = b"\1" * len(_hoard[-1][::4096])
