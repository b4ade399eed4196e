"""CuPy's RawKernel and RawModule without a GPU, for the tests' NumPy-backed stand-in
of `cupy`: the kernel's CUDA C++ source is compiled with g++ after kernel_standin.h
(which says what of a GPU it models) and launched on the CPU over NumPy arrays.

A launch takes its arguments as CuPy's does: an array is its data pointer, a NumPy
scalar its value in its own dtype, a Python int an int64, a float a float64 and a
bool a bool, each read by the kernel as the type its signature declares (so a
Python float passed where the kernel takes `float` is misread, as on a GPU). A
launch with an empty grid or block, or a block of more than 1024 threads, is refused
as the driver refuses it. A compile error, a deadlock or a warp collective whose
lanes do not all arrive raises KernelError.

`thread_order("reverse")` runs each block's threads in reverse order between
synchronisation points; a test runs both orders to expose a missing
__syncthreads() whichever way it reads.

Each launch runs in a forked child, on copies of its C-contiguous array arguments
in shared memory, each between two pages that fault on any access: a kernel that
reads or writes past an array (by more than the copy's padding to 16 bytes) raises
KernelError instead of corrupting the tests' process, and what it wrote in bounds
is copied back when it ends well.
"""

import contextlib
import ctypes
import faulthandler
import hashlib
import mmap
import os
import re
import signal
import subprocess
import tempfile
from pathlib import Path

import numpy as np

HEADER = Path(__file__).with_name("kernel_standin.h")
CACHE = Path(tempfile.gettempdir()) / "hotpath-kernel-standin"
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = (2**31 - 1, 65535, 65535)
MAX_DYNAMIC_SHARED = 48 * 1024
PAGE = mmap.PAGESIZE
PROT_NONE = 0
ERROR_BYTES = 512
ORDERS = ("forward", "reverse")
_order = ["forward"]

# `extern __shared__ float buffer[];`: the launch's dynamic shared memory.
_DYNAMIC_SHARED = re.compile(r"extern\s+__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?([\w\s]+?)\s+(\w+)\s*\[\s*\]\s*;")


class KernelError(RuntimeError):
    """The kernel did not compile, or a launch failed (the message says why)."""


@contextlib.contextmanager
def thread_order(order):
    """Run the launches inside in `order` ("forward" or "reverse")."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    before = _order[0]
    _order[0] = order
    try:
        yield
    finally:
        _order[0] = before


# `__shared__ float a[32], b[32];` inside a function (a declaration, no initialiser).
_STATIC_SHARED = re.compile(r"__shared__\s+([^;{}]*);")


def _declared_names(declaration):
    """The names a declaration such as `float a[32][33], b[8]` declares."""
    pieces, depth, current = [], 0, ""
    for char in declaration:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    pieces.append(current)
    names = [re.findall(r"\w+", piece.split("[", 1)[0].split("=", 1)[0]) for piece in pieces]
    return [words[-1] for words in names if words]


def _poison_static_shared(code):
    """Each __shared__ declaration inside a function, followed by the calls that fill
    its variables with 0xA5 once per block."""
    out, last = [], 0
    for match in _STATIC_SHARED.finditer(code):
        if code.count("{", 0, match.start()) == code.count("}", 0, match.start()):
            continue  # at file scope: no statement may follow
        calls = "".join(f" hp::poison_shared(&{name}, sizeof {name});" for name in _declared_names(match.group(1)))
        out.append(code[last : match.end()] + calls)
        last = match.end()
    return "".join(out) + code[last:]


def _translate(code):
    dynamic = _DYNAMIC_SHARED.sub(r"\1 *\2 = reinterpret_cast<\1 *>(hp::dynamic_shared());", code)
    return _poison_static_shared(dynamic)


def _library(code, names):
    """The compiled shared library exporting a launcher per kernel in `names`."""
    launchers = "".join(
        f'\nextern "C" int hotpath_launch_{name}(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,'
        f" unsigned bz, size_t shared, void **args, int reverse, char *error, int error_bytes) {{\n"
        f"    return hp::launch(&{name}, dim3(gx, gy, gz), dim3(bx, by, bz), shared, args, reverse, error,"
        f" error_bytes);\n}}\n"
        for name in names
    )
    source = f'#include "{HEADER}"\n#line 1 "kernel.cu"\n{_translate(code)}\n{launchers}'
    digest = hashlib.sha256((source + HEADER.read_text()).encode()).hexdigest()[:24]
    CACHE.mkdir(exist_ok=True)
    target = CACHE / f"{digest}.so"
    if not target.exists():
        partial = CACHE / f"{digest}.{os.getpid()}.so"
        command = ["g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-w", "-x", "c++", "-", "-o", str(partial)]
        done = subprocess.run(command, input=source, capture_output=True, text=True, check=False)
        if done.returncode:
            raise KernelError(f"the kernel does not compile:\n{done.stderr[-4000:]}")
        os.replace(partial, target)
    return ctypes.CDLL(str(target))


def _dims(value, limits, what):
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3:
        raise KernelError(f"{what} must have 1 to 3 dimensions, got {value!r}")
    dims = tuple(int(d) for d in dims) + (1,) * (3 - len(dims))
    if any(d < 1 or d > limit for d, limit in zip(dims, limits, strict=True)):
        raise KernelError(f"CUDA_ERROR_INVALID_VALUE: {what} {value!r} (each dimension from 1 to {limits})")
    return dims


class _Guarded:
    """A C-contiguous array's bytes in shared memory (a forked child's writes reach
    the parent), ending just before a page that faults on any access and starting
    one page after another."""

    def __init__(self, array):
        self.array = array
        padded = -(-array.nbytes // 16) * 16
        pages = -(-padded // PAGE)
        self.map = mmap.mmap(-1, (pages + 2) * PAGE)
        self.anchor = ctypes.c_char.from_buffer(self.map)
        base = ctypes.addressof(self.anchor)
        offset = (pages + 1) * PAGE - padded
        self.view = np.frombuffer(self.map, dtype=np.uint8, count=array.nbytes, offset=offset)
        self.view[:] = array.reshape(-1).view(np.uint8)
        self.address = base + offset
        libc = ctypes.CDLL(None, use_errno=True)
        for page in (base, base + (pages + 1) * PAGE):
            if libc.mprotect(ctypes.c_void_p(page), ctypes.c_size_t(PAGE), PROT_NONE):
                raise OSError(ctypes.get_errno(), "mprotect failed")

    def copy_back(self):
        if self.array.flags.writeable:
            self.array.reshape(-1).view(np.uint8)[:] = self.view


def _argument(value, guarded):
    """A ctypes object holding the argument's bytes as the kernel reads them; an
    array's pointer is to its guarded copy (one per array, kept in `guarded`)."""
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            return ctypes.c_void_p(value.ctypes.data)
        key = (value.ctypes.data, value.nbytes)
        if key not in guarded:
            guarded[key] = _Guarded(value)
        return ctypes.c_void_p(guarded[key].address)
    if isinstance(value, bool):
        value = np.bool_(value)
    elif isinstance(value, int):
        value = np.int64(value)
    elif isinstance(value, float):
        value = np.float64(value)
    if isinstance(value, np.generic):
        return ctypes.create_string_buffer(value.tobytes(), max(8, value.nbytes))
    raise KernelError(f"a kernel argument must be an array or a scalar, got {type(value).__name__}")


def _in_child(launch):
    """Run launch(error_address) in a forked child; its status, or the signal that ended it."""
    message = mmap.mmap(-1, PAGE)
    anchor = ctypes.c_char.from_buffer(message)
    pid = os.fork()
    if pid == 0:  # the child: never return into the tests
        try:
            faulthandler.disable()  # a fault is the expected report of an access out of bounds
            os._exit(launch(ctypes.addressof(anchor)))
        except BaseException:
            os._exit(2)
    _pid, status = os.waitpid(pid, 0)
    text = bytes(message[:ERROR_BYTES]).split(b"\0", 1)[0].decode(errors="replace")
    del anchor
    message.close()
    if os.WIFSIGNALED(status):
        return f"crashed with {signal.Signals(os.WTERMSIG(status)).name}: an access outside its arrays"
    code = os.WEXITSTATUS(status)
    return None if code == 0 else text or f"the launch failed (exit status {code})"


class RawModule:
    """Kernels compiled from one source; `get_function(name)` returns one of them."""

    def __init__(self, code=None, *, options=(), name_expressions=None, **_ignored):
        self.code = code

    def get_function(self, name):
        return RawKernel(self.code, name)


class RawKernel:
    """One kernel, called as CuPy's is: kernel(grid, block, args, shared_mem=0)."""

    def __init__(self, code, name, options=(), **_ignored):
        self.code = code
        self.name = name
        self._launcher = None

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        grid = _dims(grid, MAX_GRID, "grid")
        block = _dims(block, MAX_BLOCK, "block")
        if block[0] * block[1] * block[2] > MAX_THREADS_PER_BLOCK:
            raise KernelError(f"CUDA_ERROR_INVALID_VALUE: block {block} has more than 1024 threads")
        if not 0 <= shared_mem <= MAX_DYNAMIC_SHARED:
            raise KernelError(f"CUDA_ERROR_INVALID_VALUE: shared_mem {shared_mem} (at most 48 KiB)")
        if self._launcher is None:
            self._launcher = getattr(_library(self.code, [self.name]), f"hotpath_launch_{self.name}")
            self._launcher.restype = ctypes.c_int
        guarded = {}
        values = [_argument(value, guarded) for value in args]
        pointers = (ctypes.c_void_p * max(1, len(values)))(*(ctypes.addressof(value) for value in values))
        launcher = self._launcher

        def launch(error_address):
            return launcher(
                *(ctypes.c_uint(d) for d in grid + block),
                ctypes.c_size_t(shared_mem),
                pointers,
                ctypes.c_int(_order[0] == "reverse"),
                ctypes.c_void_p(error_address),
                ctypes.c_int(ERROR_BYTES),
            )

        problem = _in_child(launch)
        if problem:
            raise KernelError(f"kernel {self.name}: {problem}")
        for copy in guarded.values():
            copy.copy_back()
