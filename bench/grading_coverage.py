"""Grading part "coverage" (issue 30, item 1): does a grading's 95% interval hold
the figure the next gradings read?

The same answer (python-loop-to-numpy's model solution) is graded COVERAGE_GRADINGS
times in the real sandbox, one after the other. Each grading's interval is the
harness's own, which resamples runs of fresh processes, then pairs within them
and adds the host's drift between gradings (grader/harness/stats.py,
reported_interval); beside it, the same grading's calls give the interval of the
bootstrap alone, runs then pairs (what the harness reported before the host's
term, harness 1.11-1.17), and of a pairs-only bootstrap (one process's pairs:
what it reported before runs). Reported: how many of each kind hold the median of all the
gradings' figures, the spread of the figures, what a grading cost, and the host's
state (load, `scripts/tune_grading_host.sh --check`, whether inputs got huge pages),
and where the figures' spread comes from (bench/spread_sources.py), with every
grading's headline calls kept so that analysis can be redone.
"""

from bench_stats import median, rounded, spread
from grading_accuracy import grade_many
from grading_setup import host_tuning, load_average
from spread_sources import decompose

COVERAGE_CASE = ("python-loop-to-numpy", "numpy_honest.py")
COVERAGE_GRADINGS = 20
#: Issue 30's target: at least 18 of 20 intervals hold the median of the 20.
COVERAGE_TARGET = 0.9


def part_coverage(args):
    from grader.harness import stats
    from grader.host_limits import hardware_identity

    count = 6 if args.quick else COVERAGE_GRADINGS
    tuning = host_tuning()
    load_before = load_average()
    gradings = grade_many(*COVERAGE_CASE, count, "coverage")
    speedups = [g["speedup"] for g in gradings if g["speedup"] is not None]
    centre = median(speedups)

    def holds(interval):
        return bool(interval) and interval[0] <= centre <= interval[1]

    pairs_only = [recomputed_interval(stats, g["calls"], in_runs=False) for g in gradings]
    bootstrap_only = [recomputed_interval(stats, g["calls"], in_runs=True) for g in gradings]
    held = sum(holds(g["speedup_ci"]) for g in gradings)
    return {
        "exercise": COVERAGE_CASE[0],
        "submission": COVERAGE_CASE[1],
        "gradings": len(gradings),
        "accepted": sum(g["verdict"] == "accepted" for g in gradings),
        "speedups": rounded(speedups),
        "median": rounded(centre),
        "spread": rounded(spread(speedups)) if len(speedups) > 1 else None,
        "intervals": [rounded(g["speedup_ci"]) for g in gradings],
        "holds_median": held,
        "pairs_only_intervals": [rounded(interval) for interval in pairs_only],
        "pairs_only_holds_median": sum(holds(interval) for interval in pairs_only),
        "median_relative_width": rounded(median(widths([(g["speedup_ci"], g["speedup"]) for g in gradings]))),
        "pairs_only_median_relative_width": rounded(
            median(widths([(interval, g["speedup"]) for interval, g in zip(pairs_only, gradings, strict=True)]))
        ),
        "bootstrap_only_holds_median": sum(holds(interval) for interval in bootstrap_only),
        "bootstrap_only_median_relative_width": rounded(
            median(widths([(interval, g["speedup"]) for interval, g in zip(bootstrap_only, gradings, strict=True)]))
        ),
        "median_grade_s": rounded(median([g["grade_s"] for g in gradings]), 1),
        "headline_runs": [len(set((g["calls"] or {}).get("runs") or [0])) for g in gradings],
        "spread_sources": decompose([g["calls"] for g in gradings]),
        "calls": [g["calls"] for g in gradings],
        "host": {
            "tuning": tuning,
            "inputs_in_huge_pages": hardware_identity()["inputs_in_huge_pages"],
            "load_before": load_before,
            "load_after": load_average(),
        },
        "passes": held >= COVERAGE_TARGET * len(gradings),
    }


def recomputed_interval(stats, calls, in_runs):
    """The bootstrap's interval over a grading's headline calls, without the host's
    term: resampling runs, then pairs (`in_runs`), or pairs alone. None for a
    grading that timed none (one that ended without a figure)."""
    if not calls:
        return None
    runs = calls["runs"] if in_runs else None
    return stats.speedup_interval(calls["reference_s"], calls["submission_s"], calls["echo_s"], runs=runs)


def widths(intervals_and_points):
    """Each interval's width over its point figure, for those that have both."""
    return [(interval[1] - interval[0]) / point for interval, point in intervals_and_points if interval and point]
