"""The pages a call will allocate, warmed before it (grader/harness/warm.py)."""

import mmap
import os

from grader.harness import procs, warm

MIB = 1 << 20


def transient_bytes():
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
    return (int(status["VmHWM"].split()[0]) - int(status["VmRSS"].split()[0])) * 1024


def test_warm_touches_every_page_it_maps_and_gives_them_back():
    assert procs.reset_peak_rss(os.getpid())
    warm.warm(64 * MIB)
    # Resident at the peak (every page written), gone afterwards (unmapped).
    assert transient_bytes() >= 60 * MIB


def test_sizes_below_the_allocators_own_heap_are_left_alone(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("mapped memory for a small call")

    monkeypatch.setattr(warm.mmap, "mmap", refuse)
    warm.warm(warm.MIN_BYTES - 1)
    warm.warm_on(None, warm.MIN_BYTES - 1)


def test_a_refused_mapping_is_no_error(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(warm.mmap, "mmap", refuse)
    warm.warm(64 * MIB)


def test_warm_on_runs_on_the_runners_cpu_and_moves_back(monkeypatch):
    own = os.sched_getaffinity(0)
    runner_cpu = max(own)
    seen = []
    monkeypatch.setattr(warm, "warm", lambda size: seen.append((size, os.sched_getaffinity(0))))
    warm.warm_on({runner_cpu}, 8 * MIB)
    assert seen == [(8 * MIB, {runner_cpu})]
    assert os.sched_getaffinity(0) == own


def test_warm_on_moves_back_when_the_warm_up_fails(monkeypatch):
    own = os.sched_getaffinity(0)

    def fail(size):
        raise MemoryError

    monkeypatch.setattr(warm, "warm", fail)
    try:
        warm.warm_on({min(own)}, 8 * MIB)
    except MemoryError:
        pass
    assert os.sched_getaffinity(0) == own


def test_warm_on_stays_where_it_is_when_the_move_is_refused(monkeypatch):
    own = os.sched_getaffinity(0)
    calls = []

    def refuse(pid, cpus):
        calls.append(set(cpus))
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(warm.os, "sched_setaffinity", refuse)
    monkeypatch.setattr(warm, "warm", lambda size: calls.append(size))
    warm.warm_on({min(own)}, 8 * MIB)
    assert calls == [{min(own)}, 8 * MIB]  # one refused move, the warm-up, and no move back


def test_a_call_that_only_reads_its_inputs_allocated_nothing():
    """Reading the input memfd grows resident memory by its size; none of it is the call's to warm."""
    inputs = os.memfd_create("inputs")
    try:
        os.ftruncate(inputs, 64 * MIB)
        os.pwrite(inputs, b"\1" * (64 * MIB), 0)  # resident in the memfd before the call, as the supervisor leaves it
        assert procs.reset_peak_rss(os.getpid())
        base = procs.rss_bytes(os.getpid())
        with mmap.mmap(inputs, 64 * MIB, prot=mmap.PROT_READ) as view:
            assert sum(view[offset] for offset in range(0, 64 * MIB, warm.PAGE)) == 64 * MIB // warm.PAGE
            read_only = procs.peak_rss_bytes(os.getpid()) - base
            with mmap.mmap(-1, 16 * MIB) as scratch:  # what the call itself allocates: fresh pages, written
                for offset in range(0, 16 * MIB, warm.PAGE):
                    scratch[offset] = 1
                reading_and_allocating = procs.peak_rss_bytes(os.getpid()) - base
    finally:
        os.close(inputs)
    assert read_only >= 60 * MIB  # the mapped inputs count in the runner's resident memory
    assert warm.allocated_bytes(read_only, 64 * MIB) < warm.MIN_BYTES
    assert 15 * MIB <= warm.allocated_bytes(reading_and_allocating, 64 * MIB) <= 18 * MIB
    assert warm.allocated_bytes(8 * MIB, 64 * MIB) == 0  # a call that read part of its inputs
