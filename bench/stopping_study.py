"""The statistics behind the harness's sequential stopping rule (supervisor.HEADLINE_HALF_WIDTH).

    .venv/bin/python bench/stopping_study.py            # prints the tables for docs/benchmarks.md

Two checks, both cheap and deterministic:

1. Replay on real gradings. bench/results/grading-15-pairs.json holds every timed call
   of the 3 December bench run (harness 1.5: 15 pairs at the headline size on every
   grading, no stopping rule): ten gradings each of python-loop-to-numpy and
   fuse-elementwise-chain for repeatability, six each of the four calibration answers.
   For each bound the rule is replayed on each grading's pairs in the order they ran
   (stop at the first count of pairs from MIN_PAIRS on whose interval is within the
   bound), and the stopped figures are compared with the full ones: pairs used, spread
   over the gradings, calibration medians.
2. Coverage under optional stopping. Stopping when an interval happens to be narrow
   can make it cover the truth less often than a fixed count would. Synthetic pairs
   with a known speedup (log-normal noise per call at several levels, and a share of
   slow outliers) are graded with the rule and with all 15 pairs; the table gives how
   often each interval holds the true speedup and the pairs each used.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.harness import stats  # noqa: E402
from grader.harness.supervisor import HEADLINE_HALF_WIDTH, MIN_PAIRS  # noqa: E402

RECORDED = ROOT / "bench" / "results" / "grading-15-pairs.json"
BOUNDS = (0.03, HEADLINE_HALF_WIDTH, 0.075, 0.10)
SIMULATIONS = 300
PLANNED = 15


def stopped(reference, submission, echo, half_width, planned=PLANNED):
    """The rule as the supervisor applies it: (speedup, interval, pairs used)."""
    met = stats.counts_meeting_the_rule(reference, submission, echo, half_width, MIN_PAIRS, planned)
    count = next(met, planned)
    columns = (reference[:count], submission[:count], None if echo is None else echo[:count])
    return stats.speedup(*columns), stats.speedup_interval(*columns), count


def spread(values):
    return (max(values) - min(values)) / float(np.median(values))


def replay():
    data = json.loads(RECORDED.read_text())
    rows = []
    for part in ("repeatability", "calibration"):
        for case in data["parts"][part]["cases"]:
            gradings = case["headline_calls"]
            full = [stats.speedup(g["reference_s"], g["submission_s"], g["echo_s"]) for g in gradings]
            for bound in BOUNDS:
                results = [stopped(g["reference_s"], g["submission_s"], g["echo_s"], bound) for g in gradings]
                figures = [speedup for speedup, _, _ in results]
                rows.append(
                    {
                        "case": f"{case['exercise']} / {case['submission']}",
                        "bound": bound,
                        "median_pairs": float(np.median([pairs for _, _, pairs in results])),
                        "median": float(np.median(figures)),
                        "spread": spread(figures),
                        "full_median": float(np.median(full)),
                        "full_spread": spread(full),
                    }
                )
    return rows


def simulate(noise, outlier_share, rng, truth=4.0):
    """Pairs with a known speedup: each call's time log-normal around its side's
    level, a share of calls slowed 1.5-3x (a busy host), and a common per-pair
    factor both sides share (a slow spell, which the pairing cancels)."""
    spell = rng.lognormal(0.0, 0.2, PLANNED)

    def side(level):
        times = level * spell * rng.lognormal(0.0, noise, PLANNED)
        slowed = rng.random(PLANNED) < outlier_share
        return np.where(slowed, times * rng.uniform(1.5, 3.0, PLANNED), times)

    return side(0.4), side(0.4 / truth)


def coverage():
    rows = []
    for noise in (0.02, 0.05, 0.10):
        for outlier_share in (0.0, 0.1):
            rng = np.random.default_rng(20261203)
            stop_hits = full_hits = 0
            pairs = []
            for _ in range(SIMULATIONS):
                reference, submission = simulate(noise, outlier_share, rng)
                _, (low, high), count = stopped(reference, submission, None, HEADLINE_HALF_WIDTH)
                stop_hits += low <= 4.0 <= high
                pairs.append(count)
                full_low, full_high = stats.speedup_interval(reference, submission)
                full_hits += full_low <= 4.0 <= full_high
            rows.append(
                {
                    "noise": noise,
                    "outliers": outlier_share,
                    "stopped_coverage": stop_hits / SIMULATIONS,
                    "full_coverage": full_hits / SIMULATIONS,
                    "median_pairs": float(np.median(pairs)),
                }
            )
    return rows


def main():
    print("Replay on the 3 December gradings (15 pairs each, harness 1.5):\n")
    print(
        "| case | bound (half-width) | median pairs | median speedup | spread over gradings | all 15 pairs: median, spread |"
    )
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for row in replay():
        print(
            f"| {row['case']} | {row['bound']:.1%} | {row['median_pairs']:g} | {row['median']:.3f} | {row['spread']:.1%} | "
            f"{row['full_median']:.3f}, {row['full_spread']:.1%} |"
        )
    print(
        f"\nCoverage of a true speedup of 4 ({SIMULATIONS} synthetic gradings per row, bound {HEADLINE_HALF_WIDTH:.0%}, "
        f"at least {MIN_PAIRS} and at most {PLANNED} pairs):\n"
    )
    print(
        "| per-call noise (log sd) | calls slowed 1.5-3x | stopped: interval holds the truth | median pairs | all 15 pairs: interval holds the truth |"
    )
    print("| ---: | ---: | ---: | ---: | ---: |")
    for row in coverage():
        print(
            f"| {row['noise']:.2f} | {row['outliers']:.0%} | {row['stopped_coverage']:.1%} | {row['median_pairs']:g} | {row['full_coverage']:.1%} |"
        )


if __name__ == "__main__":
    main()
