"""Figures quoted in the bank's multi-core exercises (issue 34, item 2), measured
outside the grader: each variant of each kernel on one thread and on every CPU
this process may use, best of several calls (the host is shared, so the best
call is the one least disturbed). Prints one line per variant.

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python bench/multicore_facts.py   # as the sandbox runs threads
"""

import math
import os
import time

import numba
import numpy as np
from numba import get_num_threads, njit, prange

REPEATS = 25


def best_ms(function, *args):
    function(*args)  # compile
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times) * 1e3


# -- per-thread-label-counts: where each thread's counters live ----------------------


@njit(cache=False)
def labels_serial(labels):
    counts = np.zeros(8, np.int64)
    for i in range(labels.shape[0]):
        counts[labels[i]] += 1
    return counts


@njit(parallel=True, cache=False)
def labels_rows(labels):
    """One row of 8 counters (64 bytes) per thread, rows side by side."""
    threads = get_num_threads()
    n = labels.shape[0]
    step = (n + threads - 1) // threads
    counts = np.zeros((threads, 8), np.int64)
    for t in prange(threads):
        for i in range(t * step, min(n, (t + 1) * step)):
            counts[t, labels[i]] += 1
    return counts.sum(axis=0)


@njit(parallel=True, cache=False)
def labels_interleaved(labels):
    """counts[label, thread]: the threads' counters for one label are neighbours."""
    threads = get_num_threads()
    n = labels.shape[0]
    step = (n + threads - 1) // threads
    counts = np.zeros((8, threads), np.int64)
    for t in prange(threads):
        for i in range(t * step, min(n, (t + 1) * step)):
            counts[labels[i], t] += 1
    return counts.sum(axis=1)


@njit(parallel=True, cache=False)
def labels_padded(labels):
    """As labels_rows, each row 16 counters apart plus 128 bytes: no shared line."""
    threads = get_num_threads()
    n = labels.shape[0]
    step = (n + threads - 1) // threads
    counts = np.zeros((threads, 32), np.int64)
    for t in prange(threads):
        for i in range(t * step, min(n, (t + 1) * step)):
            counts[t, 16 + labels[i]] += 1
    return counts[:, 16:24].sum(axis=0)


@njit(parallel=True, cache=False)
def labels_private_indexed(labels):
    """Counters private to each chunk, merged once; the chunk read by index."""
    chunks = 4 * get_num_threads()
    n = labels.shape[0]
    step = (n + chunks - 1) // chunks
    per_chunk = np.zeros((chunks, 8), np.int64)
    for c in prange(chunks):
        local = np.zeros(8, np.int64)
        for i in range(c * step, min(n, (c + 1) * step)):
            local[labels[i]] += 1
        per_chunk[c, :] = local
    return per_chunk.sum(axis=0)


@njit(parallel=True, cache=False)
def labels_private(labels):
    """The model solution: as labels_private_indexed, looping over the chunk's slice."""
    chunks = 4 * get_num_threads()
    n = labels.shape[0]
    step = (n + chunks - 1) // chunks
    per_chunk = np.zeros((chunks, 8), np.int64)
    for c in prange(chunks):
        local = np.zeros(8, np.int64)
        for label in labels[c * step : min(n, (c + 1) * step)]:
            local[label] += 1
        per_chunk[c, :] = local
    return per_chunk.sum(axis=0)


@njit(parallel=True, cache=False)
def labels_shared(labels):
    """The race: every thread increments the same eight counters."""
    counts = np.zeros(8, np.int64)
    for i in prange(labels.shape[0]):
        counts[labels[i]] += 1
    return counts


# -- pair-energy-load-balance: a plain prange over rows against paired rows ----------


@njit(cache=False)
def _row(points, i):
    n = points.shape[0]
    s = 0.0
    for j in range(i + 1, n):
        dx = points[i, 0] - points[j, 0]
        dy = points[i, 1] - points[j, 1]
        dz = points[i, 2] - points[j, 2]
        s += 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
    return s


@njit(cache=False)
def energy_serial(points):
    total = 0.0
    for i in range(points.shape[0]):
        total += _row(points, i)
    return total


@njit(parallel=True, cache=False)
def energy_rows(points):
    total = 0.0
    for i in prange(points.shape[0]):
        total += _row(points, i)
    return total


@njit(parallel=True, cache=False)
def energy_paired(points):
    n = points.shape[0]
    total = 0.0
    for k in prange((n + 1) // 2):
        s = _row(points, k)
        if n - 1 - k != k:
            s += _row(points, n - 1 - k)
        total += s
    return total


# -- sum-of-squares-bandwidth: one accumulator against reassociated sums --------------


@njit(cache=False)
def squares_serial(x):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * x[i]
    return total


@njit(parallel=True, cache=False)
def squares_prange(x):
    total = 0.0
    for i in prange(x.shape[0]):
        total += x[i] * x[i]
    return total


@njit(parallel=True, fastmath={"reassoc"}, cache=False)
def squares_prange_reassoc(x):
    total = 0.0
    for i in prange(x.shape[0]):
        total += x[i] * x[i]
    return total


# -- softplus-many-cores ---------------------------------------------------------------


@njit(cache=False)
def softplus_serial(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
    return out


@njit(parallel=True, cache=False)
def softplus_prange(x):
    out = np.empty_like(x)
    for i in prange(x.shape[0]):
        v = x[i]
        out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
    return out


def main():
    rng = np.random.default_rng(0)
    cases = {
        "labels, 16 M int8": (
            (rng.integers(0, 8, 16_000_000, dtype=np.int8),),
            [labels_serial, labels_rows, labels_interleaved, labels_padded, labels_private_indexed, labels_private],
            None,
        ),
        "pair energy, 5,000 points": (
            (rng.uniform(0.0, 1.0, (5000, 3)),),
            [energy_serial, energy_rows, energy_paired],
            None,
        ),
        "sum of squares, 16 M float64": (
            (rng.uniform(-1.0, 1.0, 16_000_000),),
            [squares_serial, squares_prange, squares_prange_reassoc],
            16_000_000 * 8,
        ),
        "softplus, 4 M float64": (
            (rng.uniform(-20.0, 20.0, 4_000_000),),
            [softplus_serial, softplus_prange],
            None,
        ),
    }
    cpus = len(os.sched_getaffinity(0))
    print(f"{cpus} CPUs, threading layer after the first parallel call; load average {os.getloadavg()}")
    for name, (args, functions, nbytes) in cases.items():
        print(name)
        for function in functions:
            cells = []
            for threads in sorted({1, cpus}):
                numba.set_num_threads(threads)
                ms = best_ms(function, *args)
                rate = f" ({nbytes / ms / 1e6:.1f} GB/s)" if nbytes else ""
                cells.append(f"{threads} thread(s) {ms:8.2f} ms{rate}")
            print(f"  {function.__name__:24s} " + "   ".join(cells))
    numba.set_num_threads(cpus)
    labels = rng.integers(0, 8, 4_000_000, dtype=np.int8)
    lost = [int(labels.shape[0] - labels_shared(labels).sum()) for _ in range(5)]
    print(f"labels_shared (the race), 4 M labels, {cpus} threads: counts lost in five runs {lost}")
    print(f"threading layer: {numba.threading_layer()}; load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
