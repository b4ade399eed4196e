"""Inputs reach the graded code in huge pages whatever the host's shmem mode (issue 30, item 2)."""

import os

import numpy as np
import pytest

from grader.harness import hugepages, ipc
from grader.harness.sides import InputBundle

MiB = 1 << 20


def _shmem_pmd_mapped_bytes():
    for line in open("/proc/self/smaps_rollup"):
        if line.startswith("ShmemPmdMapped:"):
            return int(line.split()[1]) * 1024
    return 0


def _kernel_collapses_shmem():
    fd = os.memfd_create("probe")
    try:
        os.posix_fallocate(fd, 0, hugepages.HUGE_PAGE)
        return hugepages.collapse(fd, hugepages.HUGE_PAGE)
    finally:
        os.close(fd)


needs_collapse = pytest.mark.skipif(
    not _kernel_collapses_shmem(), reason="this kernel cannot collapse shared memory into huge pages (MADV_COLLAPSE)"
)


def test_a_mapping_starts_at_a_huge_page_boundary_and_shows_the_bytes():
    values = np.arange(3 * MiB // 8, dtype=np.float64)
    fd = os.memfd_create("inputs")
    try:
        os.pwrite(fd, values.tobytes(), 0)
        view = hugepages.map_aligned(fd, values.nbytes, writable=True)
        assert view.ctypes.data % hugepages.HUGE_PAGE == 0
        assert np.array_equal(view.view(np.float64), values)
        view.view(np.float64)[0] = -1.0
        assert np.frombuffer(os.pread(fd, 8, 0), np.float64)[0] == -1.0
    finally:
        os.close(fd)


def test_a_huge_aligned_arena_starts_large_arrays_at_2_MiB_and_small_ones_at_a_page():
    arena = ipc.Arena(huge_aligned=True)
    assert arena.place(np.zeros(10, np.uint8)) == 0
    assert arena.place(np.zeros(3 * MiB, np.uint8)) == 2 * MiB
    assert arena.place(np.zeros(10, np.uint8)) == 5 * MiB
    plain = ipc.Arena()
    plain.place(np.zeros(10, np.uint8))
    assert plain.place(np.zeros(3 * MiB, np.uint8)) // ipc.PAGE == 1


@needs_collapse
def test_an_input_bundle_is_read_through_huge_pages():
    """Failed before: a memfd on a host whose shmem mode is "never" (the usual
    default) was mapped 4 KiB at a time, unlike NumPy's own arrays."""
    size = 24 * MiB
    bundle = InputBundle((np.ones(size // 8), 7))
    try:
        before = _shmem_pmd_mapped_bytes()
        view = ipc.map_shared(bundle.fd, bundle.size, writable=True)
        assert _shmem_pmd_mapped_bytes() - before >= size - hugepages.HUGE_PAGE
        assert ipc.decode(bundle.meta, ipc.Buffer(view))[0].sum() == size // 8
        del view
    finally:
        bundle.close()


@needs_collapse
def test_a_spare_result_memfd_is_huge_and_can_still_be_sealed():
    fd = ipc.spare_result_memfd(8 * MiB)
    try:
        view = hugepages.map_aligned(fd, 8 * MiB, writable=False)
        assert _shmem_pmd_mapped_bytes() >= 8 * MiB
        del view
        assert ipc.seal_result(fd) == 0
    finally:
        os.close(fd)


def test_collapse_leaves_small_memfds_alone():
    fd = os.memfd_create("small")
    try:
        os.posix_fallocate(fd, 0, MiB)
        assert hugepages.collapse(fd, MiB) is False
    finally:
        os.close(fd)
