"""Grading parts 1 and 2, in this process through grader.grading.grade in the real
sandbox: repeatability (the same submission graded N times: how far its headline
speedup moves) and calibration (answers whose true speedup is known: 0.50x, 1.00x)."""

import time

from bench_stats import bootstrap_median_interval, coefficient_of_variation, median, rounded, spread
from grading_setup import bank_exercise, benchmark_seconds, page_reporting_state, submission_code, timed_backend

SPREAD_TARGET = 0.10
CALIBRATION_TOLERANCE = 0.05

REPEATABILITY_CASES = [
    ("python-loop-to-numpy", "numpy_honest.py"),
    ("fuse-elementwise-chain", "fused.py"),
]
CALIBRATION_CASES = [
    ("python-loop-to-numpy", "reference_twice.py", 0.5),
    ("python-loop-to-numpy", "reference_copy.py", 1.0),
    ("fuse-elementwise-chain", "reference_twice.py", 0.5),
    ("fuse-elementwise-chain", "reference_copy.py", 1.0),
]


def grade_many(slug, filename, count, label):
    from grader.grading import grade

    exercise = bank_exercise(slug)
    code = submission_code(slug, filename)
    backend = timed_backend()
    gradings = []
    for number in range(1, count + 1):
        started = time.perf_counter()
        report = grade(exercise, code, mode="full", backend=backend)
        elapsed = time.perf_counter() - started
        largest = max(report["sizes"], key=lambda entry: entry["size"]) if report["sizes"] else {}
        gradings.append(
            {
                "verdict": report["verdict"],
                "speedup": report["speedup"],
                "speedup_ci": report["speedup_ci"],
                "time_s": largest.get("time_s"),
                "reference_time_s": largest.get("reference_time_s"),
                "size_speedups": {str(entry["size"]): entry["speedup"] for entry in report["sizes"]},
                "sandbox_wall_s": backend.runs[-1],
                "grade_s": elapsed,
                "harness_work_s": backend.runs[-1] - benchmark_seconds(report),
                "headline_pairs": largest.get("pairs"),
                "calls": largest.get("calls"),
            }
        )
        shown = "-" if report["speedup"] is None else f"{report['speedup']:.3f}x"
        print(f"  {label} {slug}/{filename} #{number}: {report['verdict']} {shown} ({elapsed:.1f} s)", flush=True)
        if report["verdict"] != "accepted":
            print(f"    message: {report['message']}", flush=True)
    return gradings


def summarise_speedups(gradings):
    speedups = [g["speedup"] for g in gradings if g["speedup"] is not None]
    sizes = sorted({size for g in gradings for size in g["size_speedups"]}, key=int)
    per_size = {}
    for size in sizes:
        values = [g["size_speedups"][size] for g in gradings if g["size_speedups"].get(size) is not None]
        per_size[size] = {
            "median": rounded(median(values)),
            "spread": rounded(spread(values)) if len(values) > 1 else None,
        }
    return {
        "gradings": len(gradings),
        "accepted": sum(g["verdict"] == "accepted" for g in gradings),
        "speedups": rounded(speedups),
        "median": rounded(median(speedups)),
        "min": rounded(min(speedups)) if speedups else None,
        "max": rounded(max(speedups)) if speedups else None,
        "spread": rounded(spread(speedups)) if len(speedups) > 1 else None,
        "cv": rounded(coefficient_of_variation(speedups)) if len(speedups) > 1 else None,
        "median_of_harness_ci": rounded(
            [
                median([g["speedup_ci"][0] for g in gradings if g["speedup_ci"]]),
                median([g["speedup_ci"][1] for g in gradings if g["speedup_ci"]]),
            ]
        )
        if any(g["speedup_ci"] for g in gradings)
        else None,
        # How honest each grading's own interval was: does it hold the median of all of them?
        "ci_holds_median": sum(
            bool(g["speedup_ci"]) and g["speedup_ci"][0] <= median(speedups) <= g["speedup_ci"][1] for g in gradings
        )
        if speedups
        else 0,
        "per_size": per_size,
        "median_grade_s": rounded(median([g["grade_s"] for g in gradings]), 2),
        # The harness's own work beyond the measured calls (sandbox wall less every measured call).
        "median_harness_work_s": rounded(median([g["harness_work_s"] for g in gradings]), 3),
        "headline_pairs": [g["headline_pairs"] for g in gradings],
        # Every timed call of each grading at the headline size (bench/estimator_study.py reads them).
        "headline_calls": [g["calls"] for g in gradings],
    }


def host_speed_probe(seconds=6.0, bucket_s=0.1):
    """How steady this machine's speed is, measured the way a grading sees it.

    Times two fixed work units back to back for `seconds`: interpreter-bound
    (a pure-Python loop, like python-loop-to-numpy's reference) and
    memory-bound (copying 8 MB with NumPy, like the vectorised answers). Per
    `bucket_s` slice it takes each unit's median, then reports the slowest
    decile of slices against the fastest. On a quiet dedicated core both
    ratios sit near 1.0. A shared virtual CPU whose host core is sometimes
    busy shows ratios near 2, and then a short call (a few ms) lands wholly
    in one speed while a long one (the reference's 0.4 s loop) averages
    several: their ratio wanders with the mix, whatever the estimator."""
    import numpy as np

    source = np.ones(1 << 20)
    target = np.empty_like(source)

    def python_unit():
        total = 0
        for number in range(20_000):
            total += number * number
        return total

    def memory_unit():
        np.copyto(target, source)

    samples = {"python": [], "memory": []}
    started = time.perf_counter()
    while (now := time.perf_counter()) - started < seconds:
        for name, unit in (("python", python_unit), ("memory", memory_unit)):
            begin = time.perf_counter()
            unit()
            samples[name].append((now - started, time.perf_counter() - begin))
    result = {"seconds": seconds, "bucket_s": bucket_s}
    for name, points in samples.items():
        buckets = {}
        for at, took in points:
            buckets.setdefault(int(at / bucket_s), []).append(took)
        medians = sorted(median(values) for values in buckets.values())
        fast, slow = medians[len(medians) // 10], medians[-1 - len(medians) // 10]
        result[name] = {
            "fast_ms": rounded(fast * 1e3, 3),
            "slow_ms": rounded(slow * 1e3, 3),
            "slow_over_fast": rounded(slow / fast, 3),
            "share_25pct_slower": rounded(sum(value > 1.25 * fast for value in medians) / len(medians), 3),
        }
    return result


def part_repeatability(args):
    count = 4 if args.quick else 10
    cases = []
    reporting_before = page_reporting_state()
    steadiness = {"before": host_speed_probe()}
    for slug, filename in REPEATABILITY_CASES:
        gradings = grade_many(slug, filename, count, "repeatability")
        summary = summarise_speedups(gradings)
        summary.update(
            exercise=slug,
            submission=filename,
            passes=summary["spread"] is not None and summary["spread"] <= SPREAD_TARGET,
        )
        cases.append(summary)
    steadiness["after"] = host_speed_probe()
    reporting_after = page_reporting_state()
    if reporting_before and reporting_after and "reported_kib" in reporting_before:
        # Memory the guest handed back to the hypervisor while the gradings ran: each MiB is refaulted through the host later.
        steadiness["memory_handed_back_mib"] = round(
            (reporting_after["reported_kib"] - reporting_before["reported_kib"]) / 1024
        )
        steadiness["page_reporting_min_free_ms"] = reporting_after.get("min_free_ms")
    return {"target_spread": SPREAD_TARGET, "host_steadiness": steadiness, "cases": cases}


def part_calibration(args):
    count = 3 if args.quick else 6
    cases = []
    for slug, filename, expected in CALIBRATION_CASES:
        gradings = grade_many(slug, filename, count, "calibration")
        summary = summarise_speedups(gradings)
        speedups = [g["speedup"] for g in gradings if g["speedup"] is not None]
        summary.update(
            exercise=slug,
            submission=filename,
            expected=expected,
            interval_of_median=rounded(bootstrap_median_interval(speedups)),
            within_tolerance=sum(abs(value - expected) <= CALIBRATION_TOLERANCE for value in speedups),
            passes=bool(speedups) and abs(median(speedups) - expected) <= CALIBRATION_TOLERANCE,
        )
        cases.append(summary)
    return {"tolerance": CALIBRATION_TOLERANCE, "cases": cases}
