"""How tightly different speedup estimators repeat, on the calls the repeatability bench recorded.

    .venv/bin/python bench/estimator_study.py                 # reads bench/results/grading.json
    .venv/bin/python bench/estimator_study.py --results other.json

Every grading in the repeatability part keeps its every timed call at the headline size
(reference, submission and the echo after each pair). Each estimator below is applied to
each grading's calls, exactly as the harness would have applied it, and the spread
((max - min) / median) and coefficient of variation over the gradings are printed. The
harness's own estimator is the first row; the others are what it could have used. The
study is offline: one set of gradings, every estimator, so machine noise affects them alike.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.harness import stats  # noqa: E402


def net_times(calls):
    """Both sides' net time per pair, as the harness computes them (stats.net_pairs)."""
    echoes = np.asarray(calls["echo_s"], dtype=float) if calls.get("echo_s") else None
    return stats.net_pairs(
        np.asarray(calls["reference_s"], dtype=float), np.asarray(calls["submission_s"], dtype=float), echoes
    )


def pseudo_median(values):
    """Hodges-Lehmann: the median of all pairwise means (i <= j)."""
    first, second = np.triu_indices(len(values))
    return float(np.median((values[first] + values[second]) / 2.0))


def trimmed_mean(values, share=0.25):
    values = np.sort(values)
    cut = int(len(values) * share)
    return float(values[cut : len(values) - cut].mean())


def log_ratios(reference, submission):
    return np.log(reference / submission)


#: Each takes a grading's calls and its net times per pair (reference, submission).
ESTIMATORS = {
    "median pair ratio (the harness: stats.speedup)": lambda calls, reference, submission: stats.speedup(
        calls["reference_s"], calls["submission_s"], calls.get("echo_s") or None
    ),
    "pseudo-median of log pair ratios (Hodges-Lehmann)": lambda calls, reference, submission: float(
        np.exp(pseudo_median(log_ratios(reference, submission)))
    ),
    "geometric mean of pair ratios": lambda calls, reference, submission: float(
        np.exp(np.mean(log_ratios(reference, submission)))
    ),
    "25%-trimmed mean of log pair ratios": lambda calls, reference, submission: float(
        np.exp(trimmed_mean(log_ratios(reference, submission)))
    ),
    "ratio of median net times": lambda calls, reference, submission: float(
        np.median(reference) / np.median(submission)
    ),
    "ratio of minimum net times": lambda calls, reference, submission: float(np.min(reference) / np.min(submission)),
}


def study(case):
    rows = []
    gradings = [(calls, *net_times(calls)) for calls in case.get("headline_calls") or [] if calls]
    for name, estimator in ESTIMATORS.items():
        values = np.array([estimator(*grading) for grading in gradings])
        centre = float(np.median(values))
        rows.append(
            {
                "estimator": name,
                "median": centre,
                "spread": float((values.max() - values.min()) / centre),
                "cv": float(values.std(ddof=1) / values.mean()),
            }
        )
    return len(gradings), rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results" / "grading.json")
    args = parser.parse_args()
    data = json.loads(args.results.read_text())
    cases = data.get("parts", {}).get("repeatability", {}).get("cases", [])
    if not any(case.get("headline_calls") for case in cases):
        sys.exit(f"{args.results} has no recorded calls: rerun `bench/grading_bench.py --part repeatability` first")
    for case in cases:
        count, rows = study(case)
        if count < 2:
            continue
        print(
            f"\n{case['exercise']} / {case['submission']}: {count} gradings, "
            f"{len(case['headline_calls'][0]['reference_s'])} pairs each at the headline size\n"
        )
        print("| estimator | median | spread | CV |\n| --- | ---: | ---: | ---: |")
        for row in rows:
            print(f"| {row['estimator']} | {row['median']:.3f} | {row['spread']:.1%} | {row['cv']:.1%} |")


if __name__ == "__main__":
    main()
