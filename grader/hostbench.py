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

`python3 hostbench.py gpu` measures the GPU the sandbox exposes instead, with the
same kernels through CuPy (whose arrays follow NumPy's interface): arrays of 1 GiB
each, every timed run repeating its kernel ten times before it waits for the
device, so launching a kernel (microseconds) does not count; and a float32 matrix
product of 4096 x 4096 through cuBLAS, float32 being what the GPU exercises use.
A new array comes from CuPy's memory pool, which clears nothing, so the one-pass
figure there is close to the copy.
"""

import json
import os
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # this runs in the sandbox as a script: nothing more is imported there
    from collections.abc import Callable
    from types import ModuleType  # numpy, or cupy (which follows NumPy's interface)
    from typing import NotRequired, TypedDict

    class Figures(TypedDict):
        """What main (CPU) or main_gpu prints."""

        copy_gbs: float
        triad_gbs: float
        fresh_pass_gbs: float
        bandwidth_gbs: NotRequired[float]
        compute_gflops: NotRequired[float]
        compute_dtype: NotRequired[str]
        cpu: NotRequired[int]  # CPU only
        numpy: NotRequired[str]  # CPU only
        device: NotRequired[str]  # GPU only
        cupy: NotRequired[str]  # GPU only


ARRAY_ELEMENTS = 1 << 24  # 128 MiB of float64 per array
STREAM_REPEATS = 7
STREAM_BUDGET_S = 1.0  # per kernel: a worker measures before it says it is ready
MATRIX_SIDE = 256  # three 512 KiB matrices: cache-resident
MATRIX_PRODUCTS_PER_RUN = 20
COMPUTE_REPEATS = 7
COMPUTE_BUDGET_S = 0.5
GPU_ARRAY_ELEMENTS = 1 << 27  # 1 GiB of float64 per array: a run of ten copies takes ms even at 5 TB/s
GPU_KERNELS_PER_RUN = 10
GPU_MATRIX_SIDE = 4096  # float32: 137 GFLOP per product
GPU_PRODUCTS_PER_RUN = 10


def no_wait() -> None:
    """On the CPU a kernel is done when it returns."""


def best_seconds(
    kernel: "Callable[[], None]", repeats: int, budget_s: float, wait: "Callable[[], None]" = no_wait
) -> float:
    """The fastest of at least `repeats` runs, going on while `budget_s` lasts: on a
    busy machine the longer look finds a run that nothing interrupted. `wait`
    returns once the run's work is done (on a GPU, kernels only start when called)."""
    best = float("inf")
    runs = 0
    end = time.perf_counter() + budget_s
    while runs < repeats or time.perf_counter() < end:
        start = time.perf_counter()
        kernel()
        wait()
        best = min(best, time.perf_counter() - start)
        runs += 1
    return best


def bandwidth_gbs(
    np: "ModuleType", elements: int = ARRAY_ELEMENTS, kernels_per_run: int = 1, wait: "Callable[[], None]" = no_wait
) -> "Figures":
    a = np.full(elements, 1.0)
    b = np.full(elements, 0.0)  # written once, so every page is faulted in before timing
    c = np.full(elements, 2.0)

    def copy() -> None:
        for _ in range(kernels_per_run):
            np.copyto(b, a)

    def triad() -> None:
        for _ in range(kernels_per_run):
            np.multiply(c, 3.0, out=b)
            np.add(b, a, out=b)

    def fresh_pass() -> None:
        for _ in range(kernels_per_run):
            np.multiply(a, 2.0)  # a new array each time, freed at once

    passes = elements * kernels_per_run
    copy_s = best_seconds(copy, STREAM_REPEATS, STREAM_BUDGET_S, wait)
    triad_s = best_seconds(triad, STREAM_REPEATS, STREAM_BUDGET_S, wait)
    fresh_s = best_seconds(fresh_pass, STREAM_REPEATS, STREAM_BUDGET_S, wait)
    return {
        "copy_gbs": 16 * passes / copy_s / 1e9,
        "triad_gbs": 40 * passes / triad_s / 1e9,
        "fresh_pass_gbs": 16 * passes / fresh_s / 1e9,
    }


def compute_gflops(
    np: "ModuleType",
    side: int = MATRIX_SIDE,
    dtype: str = "float64",
    products_per_run: int = MATRIX_PRODUCTS_PER_RUN,
    wait: "Callable[[], None]" = no_wait,
) -> float:
    # The values do not change a product's speed (0.5 keeps every sum far from
    # overflow and from subnormal numbers, which some CPUs handle slowly).
    x = np.full((side, side), 0.5, dtype=dtype)
    y = np.full((side, side), 0.5, dtype=dtype)
    out = np.empty_like(x)

    def products() -> None:
        for _ in range(products_per_run):
            np.matmul(x, y, out=out)

    products()  # warm-up: BLAS picks its kernel, the matrices come into the caches
    wait()
    seconds = best_seconds(products, COMPUTE_REPEATS, COMPUTE_BUDGET_S, wait)
    return 2 * side**3 * products_per_run / seconds / 1e9


def main(cpu: "int | None") -> None:
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    import numpy as np

    figures = bandwidth_gbs(np)
    figures["bandwidth_gbs"] = max(figures["copy_gbs"], figures["triad_gbs"])
    figures["compute_gflops"] = compute_gflops(np)
    figures["compute_dtype"] = "float64"
    figures["cpu"] = sorted(os.sched_getaffinity(0))[0] if cpu is None else cpu
    figures["numpy"] = np.__version__
    emit(figures)


def main_gpu(cp: "ModuleType") -> None:
    device = cp.cuda.Device()

    def wait() -> None:
        device.synchronize()

    figures = bandwidth_gbs(cp, GPU_ARRAY_ELEMENTS, GPU_KERNELS_PER_RUN, wait)
    figures["bandwidth_gbs"] = max(figures["copy_gbs"], figures["triad_gbs"])
    figures["compute_gflops"] = compute_gflops(cp, GPU_MATRIX_SIDE, "float32", GPU_PRODUCTS_PER_RUN, wait)
    figures["compute_dtype"] = "float32"
    name = cp.cuda.runtime.getDeviceProperties(device.id)["name"]
    figures["device"] = name.decode() if isinstance(name, bytes) else str(name)
    figures["cupy"] = cp.__version__
    emit(figures)


def emit(figures: "Figures") -> None:
    print(json.dumps({key: round(value, 3) if isinstance(value, float) else value for key, value in figures.items()}))


if __name__ == "__main__":
    if sys.argv[1:] == ["gpu"]:
        import cupy

        main_gpu(cupy)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else None)
