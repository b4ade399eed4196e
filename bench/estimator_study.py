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
    reference = np.asarray(calls["reference_s"], dtype=float)
    submission = np.asarray(calls["submission_s"], dtype=float)
    if not calls.get("echo_s"):
        return reference, submission
    echoes = np.asarray(calls["echo_s"], dtype=float)
    level, jitter = stats.overhead_level(echoes), stats.overhead_jitter(echoes)
    return stats.net_time(reference, level, jitter), stats.net_time(submission, level, jitter)


def pseudo_median(values):
    """Hodges-Lehmann: the median of all pairwise means (i <= j)."""
    first, second = np.triu_indices(len(values))
    return float(np.median((values[first] + values[second]) / 2.0))


def trimmed_mean(values, share=0.25):
    values = np.sort(values)
    cut = int(len(values) * share)
    return float(values[cut: len(values) - cut].mean())


ESTIMATORS = {
    "median pair ratio (the harness: stats.speedup)": lambda calls: stats.speedup(calls["reference_s"], calls["submission_s"], calls.get("echo_s") or None),
    "pseudo-median of log pair ratios (Hodges-Lehmann)": lambda calls: float(np.exp(pseudo_median(np.log(np.divide(*net_times(calls)))))),
    "geometric mean of pair ratios": lambda calls: float(np.exp(np.mean(np.log(np.divide(*net_times(calls)))))),
    "25%-trimmed mean of log pair ratios": lambda calls: float(np.exp(trimmed_mean(np.log(np.divide(*net_times(calls)))))),
    "ratio of median net times": lambda calls: float(np.median(net_times(calls)[0]) / np.median(net_times(calls)[1])),
    "ratio of minimum net times": lambda calls: float(np.min(net_times(calls)[0]) / np.min(net_times(calls)[1])),
}


def study(case):
    rows = []
    gradings = [calls for calls in case.get("headline_calls") or [] if calls]
    for name, estimator in ESTIMATORS.items():
        values = np.array([estimator(calls) for calls in gradings])
        centre = float(np.median(values))
        rows.append({
            "estimator": name,
            "median": centre,
            "spread": float((values.max() - values.min()) / centre),
            "cv": float(values.std(ddof=1) / values.mean()),
        })
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
        print(f"\n{case['exercise']} / {case['submission']}: {count} gradings, "
              f"{len(case['headline_calls'][0]['reference_s'])} pairs each at the headline size\n")
        print("| estimator | median | spread | CV |\n| --- | ---: | ---: | ---: |")
        for row in rows:
            print(f"| {row['estimator']} | {row['median']:.3f} | {row['spread']:.1%} | {row['cv']:.1%} |")


if __name__ == "__main__":
    main()
