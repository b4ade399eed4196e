"""The pages a call is about to allocate, used just before it, as a desk's timing loop leaves them.

At a desk, each call of a loop reuses the pages the previous call freed a moment
ago. On a virtual machine whose kernel reports free memory to its hypervisor (free
page reporting), pages freed a second or more ago have been handed back, and the
next allocation faults them in again through the host at several times the cost;
between two calls of one side a grading runs the other side's call, often seconds
long. So before each call, while every process in the sandbox is stopped, the
supervisor maps as much memory as that runner's previous call allocated (its
resident memory's growth at the peak, less the inputs it mapped: those are
already resident in their memfd), plus the result memfd the supervisor fills in
for it next (whose allocation takes the warmed pages first), on the runner's
CPU, writes one byte in every page and unmaps it: the freed pages head that
CPU's free lists, and the call's allocations take them. Nothing of it runs in
the runner, so none of it counts as the runner's work between calls. Warming
more than the call will take costs grading time and buys nothing: pages the
host has taken back are slow to bring in, for the warm-up as for the call
(docs/journal.md, "What the untuned host's warm-ups were paying for").
"""

import mmap
import os
from collections.abc import Collection

from .hugepages import HUGE_PAGE

PAGE = mmap.PAGESIZE
#: Below this a call's allocations come from the allocator's own heap, not from fresh pages.
MIN_BYTES = 1 << 20
#: NumPy asks for transparent huge pages on allocations from this size on; so does the warm-up.
HUGE_FROM_BYTES = 4 << 20


def allocated_bytes(peak_growth: int, mapped_input_bytes: int) -> int:
    """What a call allocated, from its runner's resident memory at the call's
    peak less before it (`peak_growth`) and the size of the input memfd it was
    handed (`mapped_input_bytes`): reading the inputs maps pages already
    resident, which the call never allocates. Never negative (a call may map
    only part of its inputs)."""
    return max(0, peak_growth - mapped_input_bytes)


def warm(size: int) -> None:
    """Maps `size` bytes (rounded up to a huge page), touches every page and unmaps
    them. Does nothing below MIN_BYTES or where the mapping is refused."""
    if size < MIN_BYTES:
        return
    length = -(-size // HUGE_PAGE) * HUGE_PAGE
    try:
        region = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except OSError:
        return
    with region:
        if length >= HUGE_FROM_BYTES and hasattr(mmap, "MADV_HUGEPAGE"):
            region.madvise(mmap.MADV_HUGEPAGE)
        for offset in range(0, length, PAGE):
            region[offset] = 1


def warm_on(cpus: Collection[int] | None, size: int) -> None:
    """warm(size) with the calling thread moved to `cpus` for the while (each CPU
    keeps its own list of just-freed pages, and the runner allocates from its
    CPU's); where `cpus` is None or the move is refused, where the thread is."""
    if size < MIN_BYTES:
        return
    own = os.sched_getaffinity(0)
    moved = False
    if cpus:
        try:
            os.sched_setaffinity(0, cpus)
            moved = True
        except OSError:
            pass
    try:
        warm(size)
    finally:
        if moved:
            os.sched_setaffinity(0, own)
