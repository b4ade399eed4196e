"""The grading host's limits, measured on one CPU: run by grader.host_limits in the
grading sandbox (python3 hostbench.py CPU), pinned to the CPU the code under
test gets, with one BLAS thread. Prints one JSON object. NumPy only, no Django.

- Memory bandwidth, STREAM-style: a copy (b[:] = a: 16 bytes per element) and a
  triad (b = a + s*c, done by NumPy in two in-place passes: 40 bytes per element
  actually streamed) over arrays of 128 MiB each, far larger than any cache; the
  best of at least seven repetitions and of every one a 1 s budget allows, as
  STREAM reports the best. The roof is the better of the two.
- One pass into a new array: a = x * 2.0 over the same arrays, its result freshly
  allocated each time (16 bytes per element, as an exercise declares the work), so
  the operating system clears every page of it as it is first touched. What a
  single fused pass that returns a new array can reach, below the roof: the
  hint compares an answer with it.
- Compute peak on one core: a float64 matrix product on matrices that fit in the
  caches, which OpenBLAS runs as fused multiply-adds on the widest vectors the CPU
  has (2 n^3 floating-point operations per product); the best of several runs.
"""
import json
import os
import sys
import time

ARRAY_ELEMENTS = 1 << 24  # 128 MiB of float64 per array
STREAM_REPEATS = 7
STREAM_BUDGET_S = 1.0  # per kernel: a worker measures before it says it is ready
MATRIX_SIDE = 256  # three 512 KiB matrices: cache-resident
MATRIX_PRODUCTS_PER_RUN = 20
COMPUTE_REPEATS = 7
COMPUTE_BUDGET_S = 0.5


def best_seconds(kernel, repeats, budget_s):
    """The fastest of at least `repeats` runs, going on while `budget_s` lasts: on a
    busy machine the longer look finds a run that nothing interrupted."""
    best = float("inf")
    runs = 0
    end = time.perf_counter() + budget_s
    while runs < repeats or time.perf_counter() < end:
        start = time.perf_counter()
        kernel()
        best = min(best, time.perf_counter() - start)
        runs += 1
    return best


def bandwidth_gbs(np):
    a = np.full(ARRAY_ELEMENTS, 1.0)
    b = np.full(ARRAY_ELEMENTS, 0.0)  # written once, so every page is faulted in before timing
    c = np.full(ARRAY_ELEMENTS, 2.0)

    def copy():
        np.copyto(b, a)

    def triad():
        np.multiply(c, 3.0, out=b)
        np.add(b, a, out=b)

    def fresh_pass():
        np.multiply(a, 2.0)  # a new 128 MiB result each time, freed at once

    copy_s = best_seconds(copy, STREAM_REPEATS, STREAM_BUDGET_S)
    triad_s = best_seconds(triad, STREAM_REPEATS, STREAM_BUDGET_S)
    fresh_s = best_seconds(fresh_pass, STREAM_REPEATS, STREAM_BUDGET_S)
    return {
        "copy_gbs": 16 * ARRAY_ELEMENTS / copy_s / 1e9,
        "triad_gbs": 40 * ARRAY_ELEMENTS / triad_s / 1e9,
        "fresh_pass_gbs": 16 * ARRAY_ELEMENTS / fresh_s / 1e9,
    }


def compute_gflops(np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((MATRIX_SIDE, MATRIX_SIDE))
    y = rng.standard_normal((MATRIX_SIDE, MATRIX_SIDE))
    out = np.empty_like(x)

    def products():
        for _ in range(MATRIX_PRODUCTS_PER_RUN):
            np.matmul(x, y, out=out)

    products()  # warm-up: BLAS picks its kernel, the matrices come into the caches
    seconds = best_seconds(products, COMPUTE_REPEATS, COMPUTE_BUDGET_S)
    return 2 * MATRIX_SIDE**3 * MATRIX_PRODUCTS_PER_RUN / seconds / 1e9


def main(cpu):
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    import numpy as np

    figures = bandwidth_gbs(np)
    figures["bandwidth_gbs"] = max(figures["copy_gbs"], figures["triad_gbs"])
    figures["compute_gflops"] = compute_gflops(np)
    figures["cpu"] = sorted(os.sched_getaffinity(0))[0] if cpu is None else cpu
    figures["numpy"] = np.__version__
    print(json.dumps({key: round(value, 3) if isinstance(value, float) else value for key, value in figures.items()}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else None)
