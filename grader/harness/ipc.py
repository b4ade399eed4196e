"""The supervisor <-> runner channel and the value codec.

Messages are length-prefixed JSON over a Unix socket pair. Array bytes never
travel inside a message: they live in a memfd whose descriptor is passed
alongside (SCM_RIGHTS). Inputs go to a runner in one memfd it maps shared, so
the supervisor can see afterwards whether the code wrote to its inputs.
Results come back in a memfd the runner has *sealed* (no write, grow or
shrink), so their bytes are frozen the moment the supervisor accepts them and
a background thread cannot finish the work after the clock stopped.

The supervisor decodes a runner's answer with `decode` only: a strict JSON
schema plus numpy's frombuffer with a dtype string that matched a whitelist.
Nothing a runner sends is ever unpickled or evaluated.
"""

import base64
import errno
import fcntl
import json
import mmap
import os
import re
import select
import socket
import stat
import struct
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Self, cast

import numpy as np
import numpy.typing as npt

from . import hugepages

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

HEADER = struct.Struct("<I")
MAX_MESSAGE_BYTES = 1 << 20
MAX_FDS = 4
MAX_ITEMS = 64
MAX_DEPTH = 4
MAX_ARRAY_BYTES = 1 << 36
MAX_NDIM = 32
PAGE = mmap.PAGESIZE
RESULT_SEALS = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
#: Adding F_SEAL_WRITE fails with EBUSY while a writable mapping of the memfd is
#: open, or when one of its pages keeps a reference beyond the page cache's own
#: after the kernel has waited about 150 ms for it to go (memfd_wait_for_pins: a
#: page being migrated, say). Something of that kind ended one grading of several
#: thousand in an error (docs/testing.md, "Whole-suite runs"), so the seal is
#: tried this many times, SEAL_RETRY_S apart, before the call fails. The wait
#: stays inside that call's time, like any other stall the machine causes: one
#: slow pair moves a median over pairs little, and dropping such pairs could only
#: be done for the reference's calls (the submission's runner reports its own),
#: which biases the figures (docs/benchmarks.md, "Timing method").
SEAL_ATTEMPTS = 6
SEAL_RETRY_S = 0.05
#: Bytes in a cache line: a result array starts as far into its memfd page as
#: it starts into a cache line in the runner's memory, since the kernel's copy
#: is slower across differing offsets and the echo's blank lies at a page
#: boundary (docs/benchmarks.md, "Answers copied at their own offset").
CACHE_LINE = 64
_DTYPE_RE = re.compile(r"^[<>|=]?[biufc][0-9]{1,2}$")
_NUMERIC_KINDS = "biufc"


class ProtocolError(Exception):
    """A message or descriptor that does not follow the protocol."""


class ChannelClosed(Exception):
    """The other end went away."""


class Unsupported(Exception):
    """A value the codec does not carry; the text says what it was."""


class Channel:
    """Length-prefixed JSON messages, with descriptors alongside, over a Unix socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def fileno(self) -> int:
        return self.sock.fileno()

    def send(self, message: Mapping[str, object], fds: Iterable[int] = ()) -> None:
        data = json.dumps(message, separators=(",", ":"), allow_nan=False).encode("utf-8")
        payload = HEADER.pack(len(data)) + data
        if fds:
            sent = socket.send_fds(self.sock, [payload], list(fds))
            payload = payload[sent:]
        if payload:
            self.sock.sendall(payload)

    def receive(self, deadline_ns: int | None = None) -> tuple[dict[str, object], list[int]]:
        """One message and the descriptors that came with it.

        `deadline_ns` is a time.perf_counter_ns() value; None waits forever.
        Raises TimeoutError, ChannelClosed or ProtocolError.
        """
        buffer = bytearray()
        fds: list[int] = []
        try:
            wanted = HEADER.size
            have_length = False
            while len(buffer) < wanted:
                self._wait_readable(deadline_ns)
                data, new_fds, flags, _ = socket.recv_fds(self.sock, wanted - len(buffer), MAX_FDS)
                fds.extend(new_fds)
                if flags & socket.MSG_CTRUNC or len(fds) > MAX_FDS:
                    raise ProtocolError("too many descriptors")
                if not data:
                    raise ChannelClosed()
                buffer += data
                if not have_length and len(buffer) >= HEADER.size:
                    (length,) = HEADER.unpack_from(buffer)
                    if length > MAX_MESSAGE_BYTES:
                        raise ProtocolError("message too long")
                    wanted = HEADER.size + length
                    have_length = True
            try:
                message: object = json.loads(bytes(buffer[HEADER.size :]))
            except ValueError:
                raise ProtocolError("message is not JSON") from None
            if not isinstance(message, dict):
                raise ProtocolError("message is not an object")
            return message, fds
        except BaseException:
            close_fds(fds)
            raise

    def _wait_readable(self, deadline_ns: int | None) -> None:
        while True:
            if deadline_ns is None:
                timeout_ms = None
            else:
                timeout_ms = max(0, (deadline_ns - time.perf_counter_ns()) // 1_000_000)
            poller = select.poll()
            poller.register(self.sock.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
            if poller.poll(timeout_ms):
                return
            if deadline_ns is not None and time.perf_counter_ns() >= deadline_ns:
                raise TimeoutError()


def close_fds(fds: Iterable[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class Arena:
    """Collects arrays for one memfd, each in pages of its own. With
    `huge_aligned` (inputs), an array starts at a page boundary, and one of
    2 MiB or more at a 2 MiB boundary, so it can lie in huge pages
    (hugepages.collapse) as it would at a learner's desk. Otherwise (answers),
    an array starts as far into its page as it starts into a cache line in
    memory (CACHE_LINE), so copying it in costs the same wherever it lies."""

    def __init__(self, huge_aligned: bool = False) -> None:
        self.arrays: list[tuple[int, npt.NDArray[np.generic]]] = []
        self.size = 0
        self.huge_aligned = huge_aligned

    def place(self, array: npt.NDArray[np.generic]) -> int:
        """Places `array` and returns its offset in the memfd."""
        offset = self.size
        if not self.huge_aligned:
            offset += _line_offset(array)
        elif array.nbytes >= hugepages.HUGE_PAGE:
            offset = -(-offset // hugepages.HUGE_PAGE) * hugepages.HUGE_PAGE
        self.arrays.append((offset, array))
        self.size = _round_up(offset + array.nbytes)
        return offset

    def write_memfd(self, name: str, seal: bool, spare_fd: int | None = None) -> int | None:
        """A memfd holding every placed array (None when there are no bytes);
        in huge pages where the arena is huge_aligned and the kernel allows.

        `spare_fd` (from spare_result_memfd) is written instead of a new memfd
        when given; it is closed when there are no bytes to write."""
        if self.size == 0:
            if spare_fd is not None:
                os.close(spare_fd)
            return None
        if spare_fd is not None:
            fd = spare_fd
        else:
            fd = os.memfd_create(name, os.MFD_CLOEXEC | (os.MFD_ALLOW_SEALING if seal else 0))
        try:
            os.ftruncate(fd, self.size)
            for offset, array in self.arrays:
                # NumPy's stubs give an array the buffer protocol on Python 3.12+ only.
                view = memoryview(cast("ReadableBuffer", array.reshape(-1).view(np.uint8)))
                while len(view):
                    written = os.pwrite(fd, view, offset)
                    view = view[written:]
                    offset += written
            if self.huge_aligned:
                hugepages.collapse(fd, self.size)
            if seal:
                seal_result(fd)
        except BaseException:
            os.close(fd)
            raise
        return fd


def seal_result(fd: int) -> int:
    """Seals `fd` against writing, growing and shrinking (and further seals);
    returns how many times the kernel refused first (SEAL_ATTEMPTS)."""
    for refusals in range(SEAL_ATTEMPTS):
        if refusals:
            time.sleep(SEAL_RETRY_S)
        try:
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, RESULT_SEALS | fcntl.F_SEAL_SEAL)
            return refusals
        except OSError as exc:
            if exc.errno != errno.EBUSY:
                raise
    raise OSError(
        errno.EBUSY,
        f"the answer's memory could not be sealed: its pages were still in use {SEAL_ATTEMPTS} times in a row, "
        "after the call had returned (a writable mapping of them left open, or pages the kernel was still moving)",
    )


def spare_result_memfd(nbytes: int) -> int:
    """An empty-looking memfd whose first `nbytes` are already allocated, for a
    runner to write its result into (Arena.write_memfd) and seal.

    Writing a result into a fresh memfd allocates and zeroes a page per 4 KiB
    inside the timed window: on a virtual machine about as long as the copy
    itself, and noisy. The supervisor allocates them here instead, before the
    clock starts, for both sides alike. It never maps the memfd, so the runner
    can seal it against writing; the supervisor closes its own descriptor once
    sent and trusts only what comes back sealed (Buffer.from_sealed_fd)."""
    fd = os.memfd_create("hotpath-result", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        if nbytes > 0:
            os.posix_fallocate(fd, 0, _round_up(nbytes))
            hugepages.collapse(fd, nbytes)
    except BaseException:
        os.close(fd)
        raise
    return fd


def same_bytes(first: npt.NDArray[np.generic], second: npt.NDArray[np.generic]) -> bool:
    """Whether two arrays have the same dtype, shape and bytes. Compares a
    machine word at a time, which costs far less than comparing elements, and
    is exact (NaN payloads and -0.0 included)."""
    if first.dtype != second.dtype or first.shape != second.shape:
        return False
    first = np.ascontiguousarray(first).reshape(-1).view(np.uint8)
    second = np.ascontiguousarray(second).reshape(-1).view(np.uint8)
    if first.size % 8 == 0:
        first, second = first.view(np.uint64), second.view(np.uint64)
    return bool(np.array_equal(first, second))


def _line_offset(array: npt.NDArray[np.generic]) -> int:
    """How far into its cache line `array`'s data starts, where that keeps it
    aligned for its dtype, else 0."""
    offset = int(array.ctypes.data) % CACHE_LINE
    return offset if offset % array.dtype.alignment == 0 else 0


def _round_up(nbytes: int) -> int:
    return (nbytes + PAGE - 1) // PAGE * PAGE


def encode(value: object, arena: Arena, depth: int = 0) -> dict[str, object]:
    """JSON-able description of `value`; array bytes go into `arena`.

    Only plain data crosses: exact numpy.ndarray of a numeric dtype, numpy
    numeric scalars, Python numbers, None, and tuples of those.
    """
    kind = type(value)
    # mypy does not narrow `value` through `kind is ...`: the casts below say what that test established.
    if kind is np.ndarray:
        array = cast("npt.NDArray[np.generic]", value)
        if array.dtype.kind not in _NUMERIC_KINDS or array.dtype.fields is not None:
            raise Unsupported(f"a numpy array of dtype {array.dtype} (only numeric dtypes are supported)")
        contiguous = np.ascontiguousarray(array)
        offset = arena.place(contiguous)
        return {"t": "array", "dtype": contiguous.dtype.str, "shape": list(contiguous.shape), "offset": offset}
    if kind is bool:
        return {"t": "bool", "v": value}
    if kind is int:
        return {"t": "int", "v": str(value)}
    if kind is float:
        return {"t": "float", "v": cast(float, value).hex()}
    if kind is complex:
        number = cast(complex, value)
        return {"t": "complex", "re": number.real.hex(), "im": number.imag.hex()}
    if value is None:
        return {"t": "none"}
    if isinstance(value, np.generic) and kind.__module__ == "numpy" and value.dtype.kind in _NUMERIC_KINDS:
        return {"t": "npscalar", "dtype": value.dtype.str, "b64": base64.b64encode(value.tobytes()).decode("ascii")}
    if kind is tuple:
        items = cast("tuple[object, ...]", value)
        if depth >= MAX_DEPTH or len(items) > MAX_ITEMS:
            raise Unsupported("a tuple nested too deeply or too long")
        return {"t": "tuple", "items": [encode(item, arena, depth + 1) for item in items]}
    raise Unsupported(describe_type(value))


def describe_type(value: object) -> str:
    kind = type(value)
    name = f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__qualname__
    if isinstance(value, np.ndarray):
        return f"a {name} (a subclass of numpy.ndarray, not a plain numpy.ndarray)"
    if hasattr(kind, "__array__") or hasattr(kind, "__array_interface__"):
        return f"a {name} object that only imitates an array (not a plain numpy.ndarray)"
    return f"a {name}"[:200]


class Buffer:
    """Read-only bytes of a sealed result memfd (or nothing)."""

    def __init__(self, data: npt.NDArray[np.uint8] | None = None) -> None:
        self.data = data if data is not None else np.empty(0, np.uint8)

    @classmethod
    def from_sealed_fd(cls, fd: int, size: int) -> Self:
        """Validates that `fd` is a sealed memfd of exactly `size` bytes."""
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != size:
            raise ProtocolError("result descriptor is not a file of the announced size")
        try:
            seals = fcntl.fcntl(fd, fcntl.F_GET_SEALS)
        except OSError:
            raise ProtocolError("result descriptor is not a sealed memfd") from None
        if seals & RESULT_SEALS != RESULT_SEALS:
            raise ProtocolError("result memfd is not sealed")
        mapping = mmap.mmap(fd, size, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
        return cls(np.frombuffer(mapping, dtype=np.uint8))


def map_shared(fd: int, size: int, writable: bool) -> npt.NDArray[np.uint8]:
    """Maps a memfd shared at a 2 MiB boundary (its huge pages mapped as such);
    the pages are populated now, not on first touch."""
    return hugepages.map_aligned(fd, size, writable)


def decode(meta: object, buffer: Buffer, depth: int = 0) -> object:
    """Inverse of encode with every field validated; raises ProtocolError."""
    if not isinstance(meta, dict):
        raise ProtocolError("value description is not an object")
    kind = meta.get("t")
    try:
        if kind == "array":
            return _decode_array(meta, buffer)
        if kind == "bool":
            if type(meta["v"]) is not bool:
                raise ProtocolError("bad bool")
            return meta["v"]
        if kind == "int":
            text = _short_string(meta["v"], 5000)
            return int(text)
        if kind == "float":
            return float.fromhex(_short_string(meta["v"], 40))
        if kind == "complex":
            return complex(float.fromhex(_short_string(meta["re"], 40)), float.fromhex(_short_string(meta["im"], 40)))
        if kind == "none":
            return None
        if kind == "npscalar":
            dtype = _checked_dtype(meta["dtype"])
            raw = base64.b64decode(_short_string(meta["b64"], 64), validate=True)
            if len(raw) != dtype.itemsize:
                raise ProtocolError("scalar has the wrong number of bytes")
            return np.frombuffer(raw, dtype=dtype)[0]
        if kind == "tuple":
            items = meta["items"]
            if not isinstance(items, list) or len(items) > MAX_ITEMS or depth >= MAX_DEPTH:
                raise ProtocolError("bad tuple")
            return tuple(decode(item, buffer, depth + 1) for item in items)
        if kind == "unsupported":
            return UnsupportedValue(_short_string(meta["what"], 300))
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"malformed value: {exc}") from None
    raise ProtocolError("unknown value kind")


class UnsupportedValue:
    """Stands for a returned value the codec refused (the runner says what it was)."""

    def __init__(self, what: str) -> None:
        self.what = what


def _decode_array(meta: Mapping[str, object], buffer: Buffer) -> npt.NDArray[np.generic]:
    dtype = _checked_dtype(meta["dtype"])
    shape = meta["shape"]
    offset = meta["offset"]
    if not isinstance(shape, list) or len(shape) > MAX_NDIM:
        raise ProtocolError("bad shape")
    count = 1
    for extent in shape:
        if type(extent) is not int or extent < 0:
            raise ProtocolError("bad shape")
        count *= extent
    nbytes = count * dtype.itemsize
    if type(offset) is not int or offset < 0 or nbytes > MAX_ARRAY_BYTES:
        raise ProtocolError("bad offset")
    if offset % PAGE >= CACHE_LINE or offset % dtype.alignment:  # see Arena.place
        raise ProtocolError("bad offset")
    if nbytes == 0:
        return np.empty(tuple(shape), dtype=dtype)
    if offset + nbytes > buffer.data.size:
        raise ProtocolError("array lies outside its memfd")
    return buffer.data[offset : offset + nbytes].view(dtype).reshape(tuple(shape))


def _checked_dtype(text: object) -> np.dtype[np.generic]:
    text = _short_string(text, 8)
    if not _DTYPE_RE.match(text):
        raise ProtocolError("unsupported dtype")
    try:
        dtype = np.dtype(text)
    except TypeError:
        raise ProtocolError("unsupported dtype") from None
    if dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
        raise ProtocolError("unsupported dtype")
    return dtype


def _short_string(value: object, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ProtocolError("bad string field")
    return value
