"""Huge pages for the memfds inputs and answers cross the sandbox in, whatever the host's shmem mode.

At a learner's desk NumPy asks for transparent huge pages on every large array
(madvise), so code reads its inputs through 2 MiB pages. A memfd is shared
memory, which most hosts give 4 KiB pages (shmem_enabled "never"), and reading
through 4 KiB pages costs a memory-bound answer far more TLB misses than the
reference's loop: the ratio read lower than at home. MADV_COLLAPSE (Linux 6.1)
turns a range's pages into huge pages synchronously and regardless of the
sysfs modes; once a memfd's pages are huge, any mapping whose address and file
offset agree modulo 2 MiB maps them 2 MiB at a time. So the supervisor
collapses each memfd it fills, before any clock starts, and every mapping here
is placed at a 2 MiB boundary. Where the kernel refuses (an older kernel,
shmem_enabled "deny"), the pages stay small and nothing else changes.
"""

import ctypes
import mmap
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

HUGE_PAGE = 2 << 20
MADV_COLLAPSE = 25
_PROT_NONE = 0
_MAP_FIXED = 0x10
_MAP_NORESERVE = 0x4000
_MAP_POPULATE = getattr(mmap, "MAP_POPULATE", 0x8000)
_FAILED = ctypes.c_void_p(-1).value

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


class _Mapping:
    """A 2 MiB-aligned shared mapping of a memfd, unmapped when the last array viewing it goes."""

    def __init__(self, fd: int, size: int, writable: bool, populate: bool) -> None:
        self.length = _round_up(size, mmap.PAGESIZE)
        self.address: int | None = None
        # ctypes declares no Python types: mmap returns an address (int), or None for NULL.
        reserved: int | None = _libc.mmap(
            None, self.length + HUGE_PAGE, _PROT_NONE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0
        )
        if reserved in (None, _FAILED):
            raise _os_error("reserving address space")
        aligned = _round_up(reserved, HUGE_PAGE)
        prot = mmap.PROT_READ | (mmap.PROT_WRITE if writable else 0)
        flags = mmap.MAP_SHARED | _MAP_FIXED | (_MAP_POPULATE if populate else 0)
        placed: int | None = _libc.mmap(aligned, self.length, prot, flags, fd, 0)
        if placed != aligned:
            error = _os_error("mapping a memfd")
            _libc.munmap(reserved, self.length + HUGE_PAGE)
            raise error
        self.address = aligned
        if aligned > reserved:
            _libc.munmap(reserved, aligned - reserved)
        tail = reserved + self.length + HUGE_PAGE - (aligned + self.length)
        if tail:
            _libc.munmap(aligned + self.length, tail)
        self.__array_interface__: dict[str, object] = {
            "shape": (size,),
            "typestr": "|u1",
            "data": (aligned, not writable),
            "version": 3,
        }

    def __del__(self) -> None:
        if self.address is not None:
            _libc.munmap(self.address, self.length)
            self.address = None


def map_aligned(fd: int, size: int, writable: bool, populate: bool = True) -> "npt.NDArray[np.uint8]":
    """The first `size` bytes of memfd `fd` as a uint8 array, mapped shared at a
    2 MiB-aligned address (so huge pages in the memfd are mapped as such).
    The mapping lives as long as the array or any view of it."""
    # Imported here: the worker's host side (grader.host_limits) imports this module for
    # shared_memory_collapses, and the web and worker image has no NumPy.
    import numpy as np

    return np.asarray(_Mapping(fd, size, writable, populate))


def collapse(fd: int, size: int) -> bool:
    """Asks the kernel to back memfd `fd`'s first `size` bytes with huge pages
    (every whole 2 MiB extent of them). Returns whether it did; False on a kernel
    without MADV_COLLAPSE or where shmem huge pages are denied. Costs a copy of
    the bytes (about 25 ms for 128 MB); call it before any clock starts."""
    if size < HUGE_PAGE:
        return False
    mapping = _Mapping(fd, size, writable=False, populate=False)
    try:
        status: int = _libc.madvise(mapping.address, _round_down(size, HUGE_PAGE), MADV_COLLAPSE)
        return status == 0
    finally:
        mapping.__del__()


def shared_memory_collapses() -> bool:
    """Whether this kernel gives a memfd huge pages on request (collapse)."""
    fd = os.memfd_create("hotpath-probe", os.MFD_CLOEXEC)
    try:
        os.posix_fallocate(fd, 0, HUGE_PAGE)
        return collapse(fd, HUGE_PAGE)
    finally:
        os.close(fd)


def _round_up(value: int, unit: int) -> int:
    return (value + unit - 1) // unit * unit


def _round_down(value: int, unit: int) -> int:
    return value // unit * unit


def _os_error(what: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}")
