"""Roofline figures for a graded report: per size, the GB/s and GFLOP/s each side
achieved on the work the exercise declares (front matter `work`, grader.work),
over the net per-size times of the report, as fractions of this host's measured
bandwidth and compute peak (grader.host_limits; on a GPU exercise, the device's);
and a hint built from them.

The bytes and flops are the least the task needs (read the inputs once, write the
result once), so a figure below the roof measures what the code does beyond that
minimum: extra passes, temporaries, interpreter work.
"""

from typing import Any, NotRequired, TypedDict

from . import host_limits
from .harness import feedback
from .host_limits import HostLimits
from .verdicts import Verdict
from .work import BadFormula, evaluate

#: At or above this fraction of a roof, the code is at the machine's limit.
AT_THE_ROOF = 0.6
#: Below this fraction of the memory roof (a fraction, 0-1), the time is that of more
#: than 50 passes over the data the task needs: more than a chain of whole-array
#: operations costs (each is one to three passes: read, write, and the OS clearing a
#: new array), and less than a Python-level loop over elements costs; the reading on
#: real answers, far from the line on both sides, is in docs/benchmarks.md.
INTERPRETED = 0.02
#: At or above this fraction of the host's one-pass-into-a-new-array rate
#: (hostbench's fresh_pass_gbs), a memory-bound answer is as fast as one pass
#: that returns a new array can be there.
NEAR_A_FRESH_PASS = 0.8
#: What a report's `roofline.host` keeps of the measurement.
HOST_FIELDS = (
    "host",
    "cpu_model",
    "cpu",
    "logical_cpus",
    "bandwidth_gbs",
    "copy_gbs",
    "triad_gbs",
    "fresh_pass_gbs",
    "compute_gflops",
    "compute_dtype",
    "device",
    "measured_at",
    "command",
    "transparent_huge_pages",
    "shmem_huge_pages",
    "inputs_in_huge_pages",
)


class Achieved(TypedDict):
    """What one side achieved at one size."""

    time_s: float
    gbs: float
    gflops: float
    bandwidth_fraction: float
    compute_fraction: float


class SizeFigures(TypedDict):
    size: int
    bytes: float
    flops: float
    flops_per_byte: float | None
    submission: Achieved | None
    reference: Achieved | None


class Roofline(TypedDict):
    target: str
    host: dict[str, Any]  # HOST_FIELDS of the host's limits
    work: dict[str, Any]  # the spec's formulas, as the loader kept them
    ridge_flops_per_byte: float
    sizes: list[SizeFigures]
    hint: NotRequired[str]  # set last, from the rest


def for_report(spec: dict[str, Any], report: dict[str, Any], limits: HostLimits | None = None) -> Roofline | None:
    """The report's `roofline`, or None when it has none (no declared work, not an
    accepted full grading, or the host's limits could not be measured)."""
    work = spec.get("work")
    if not work or report.get("verdict") != Verdict.ACCEPTED or report.get("mode") != "full" or not report.get("sizes"):
        return None
    target = spec.get("target", "cpu")
    limits = limits or host_limits.current(target)
    if not limits:
        return None
    try:
        sizes = [_size_figures(row, work, limits) for row in report["sizes"]]
    except BadFormula:
        return None  # the loader checked the formulas; an older row's spec may not have been
    roofline: Roofline = {
        "target": target,
        "host": {key: limits.get(key) for key in HOST_FIELDS},
        "work": dict(work),
        "ridge_flops_per_byte": limits["compute_gflops"] / limits["bandwidth_gbs"],
        "sizes": sizes,
    }
    roofline["hint"] = hint(roofline)
    return roofline


def _size_figures(row: dict[str, Any], work: dict[str, Any], limits: HostLimits) -> SizeFigures:
    n = row["size"]
    moved, flops = evaluate(work["bytes"], n), evaluate(work["flops"], n)
    return {
        "size": n,
        "bytes": moved,
        "flops": flops,
        "flops_per_byte": flops / moved if moved else None,
        "submission": _achieved(moved, flops, row.get("time_s"), limits),
        "reference": _achieved(moved, flops, row.get("reference_time_s"), limits),
    }


def _achieved(moved: float, flops: float, seconds: float | None, limits: HostLimits) -> Achieved | None:
    if not seconds or seconds <= 0:
        return None
    gbs, gflops = moved / seconds / 1e9, flops / seconds / 1e9
    return {
        "time_s": seconds,
        "gbs": gbs,
        "gflops": gflops,
        "bandwidth_fraction": gbs / limits["bandwidth_gbs"],
        "compute_fraction": gflops / limits["compute_gflops"],
    }


def hint(roofline: Roofline) -> str:
    """What the figures at the largest size say to do next, in a sentence."""
    largest = roofline["sizes"][-1]
    mine = largest["submission"]
    if mine is None:
        return ""
    host = roofline["host"]
    on_gpu = roofline.get("target") == "gpu"
    intensity = largest["flops_per_byte"]
    # No bytes declared (None): all arithmetic, so the compute roof holds it.
    memory_bound = intensity is not None and intensity < roofline["ridge_flops_per_byte"]
    machine = "this GPU's" if on_gpu else "this machine's"
    if memory_bound:
        fraction, achieved, roof, unit, what = (
            mine["bandwidth_fraction"],
            mine["gbs"],
            host["bandwidth_gbs"],
            "GB/s",
            "memory bandwidth",
        )
    else:
        peak = f"{host.get('compute_dtype') or 'float32'} compute peak" if on_gpu else "compute peak on one core"
        fraction, achieved, roof, unit, what = (
            mine["compute_fraction"],
            mine["gflops"],
            host["compute_gflops"],
            "GFLOP/s",
            peak,
        )
    if fraction <= 0:  # the work declares nothing of this kind: no roof to hold it to
        return ""
    measured = f"{feedback.three_figures(achieved)} {unit} of {feedback.three_figures(roof)} {unit} measured"
    at = f"At size {largest['size']:,} you are at {feedback.percent(fraction)} of {machine} {what} ({measured})"
    if fraction > 1:
        if on_gpu:
            return f"{at}: the data fits in the GPU's L2 cache, which is faster than device memory. On larger inputs the memory roof applies."
        return (
            f"{at}: the data fits in the CPU's caches, which are faster than main memory. "
            "On inputs larger than the caches the memory roof applies."
        )
    if fraction >= AT_THE_ROOF:
        if memory_bound:
            return f"{at}: the next step is fewer passes over memory, not faster ones."
        return f"{at}: the next step is fewer operations (a better algorithm), not faster ones."
    if on_gpu:
        return _below_a_gpu_roof(at, fraction, memory_bound)
    if memory_bound:
        return _below_the_memory_roof(at, fraction, mine["gbs"], host.get("fresh_pass_gbs"))
    return f"{at}: the arithmetic is not using the core's vector units; move it into whole-array operations."


def _below_a_gpu_roof(at: str, fraction: float, memory_bound: bool) -> str:
    if fraction < INTERPRETED:
        return (
            f"{at}: far below what the device can do, so the time goes to something other than the kernels' work: "
            "many small kernel launches (a Python loop over elements or rows), copies to or from the host, or "
            "waiting for the device inside a loop (.get(), .item(), printing a value). Do the whole array in one call."
        )
    if not memory_bound:
        return (
            f"{at}: the arithmetic is not keeping the GPU busy; batch it into fewer, larger operations "
            "(one batched matrix product rather than many small ones)."
        )
    return (
        f"{at}: your time is what moving the data the task needs {_passes(fraction)} would take. On a GPU each "
        "separate array operation is a kernel that reads and writes the whole array in device memory: fuse the "
        "steps into one kernel (cupy.fuse, cupy.ElementwiseKernel), avoid temporaries, and keep the data on the device."
    )


def _below_the_memory_roof(at: str, fraction: float, gbs: float, fresh_pass_gbs: float | None) -> str:
    passes = _passes(fraction)
    if fraction < INTERPRETED:
        return (
            f"{at}: your time is what moving the data the task needs {passes} would take, more than a chain "
            "of whole-array operations costs. The time goes to per-element work in Python (a loop, a "
            "comprehension, conversions to and from lists): look for it first, then count the passes."
        )
    if fresh_pass_gbs and gbs >= NEAR_A_FRESH_PASS * fresh_pass_gbs:
        return (
            f"{at}: about what one pass that writes a new array reaches on this machine ({feedback.three_figures(fresh_pass_gbs)} GB/s "
            "measured; the operating system clears a new array's memory as it is first touched, so the roof "
            "itself is out of reach). There is little left to gain in passes over the data."
        )
    fresh = (
        f" Even one fused pass that writes a new array reaches {feedback.three_figures(fresh_pass_gbs)} GB/s here (measured), as the "
        "operating system clears the new array's memory as it is first touched."
        if fresh_pass_gbs
        else ""
    )
    return (
        f"{at}: your time is what moving the data the task needs {passes} would take. Each extra pass costs "
        f"time (every whole-array operation reads and writes the data at least once), and so does each new array.{fresh} "
        "Count the passes in the line-by-line profile; do fewer operations, work in place (out=, +=), or fuse the "
        "steps into one pass."
    )


def _passes(fraction: float) -> str:
    """How many times over the least traffic the time would move, in words."""
    times = 1 / fraction
    return f"about {times:.1f} times" if times < 10 else f"about {times:,.0f} times"
