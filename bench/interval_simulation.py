"""How often a grading's 95% interval holds the true speedup, by how the pairs are
split among runs of fresh processes (docs/benchmarks.md, "An interval that covers
the next grading"):

    .venv/bin/python bench/interval_simulation.py [--gradings 100]

Each simulated grading has 15 pairs split into runs; every run draws its own
level (log-normal, the spread between processes), every call its own noise
(log-normal, 5%). The true speedup is 100. The interval is the harness's own
(grader.harness.stats.speedup_interval, with the pairs' runs), at 1,000
resamples instead of 4,000 to keep the run short. Fixed seed: the same table
every time.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader.harness import stats  # noqa: E402

DESIGNS = ((1, 15), (3, 5), (5, 3))
BETWEEN_PROCESSES = (0.0, 0.05, 0.10)
WITHIN = 0.05


def grading(rng, runs, pairs_per_run, between):
    reference, submission, labels = [], [], []
    for run in range(runs):
        level = np.exp(between * rng.standard_normal())
        for _ in range(pairs_per_run):
            reference.append(np.exp(WITHIN * rng.standard_normal()))
            submission.append(0.01 * level * np.exp(WITHIN * rng.standard_normal()))
            labels.append(run)
    return reference, submission, labels


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gradings", type=int, default=100)
    args = parser.parse_args()
    stats.BOOTSTRAP_RESAMPLES = 1000
    rng = np.random.default_rng(7)
    print("| design (15 pairs) | " + " | ".join(f"processes {b:.0%} apart" for b in BETWEEN_PROCESSES) + " | width |")
    print("| --- | " + " | ".join("---:" for _ in BETWEEN_PROCESSES) + " | ---: |")
    for runs, per_run in DESIGNS:
        cells, widths = [], []
        for between in BETWEEN_PROCESSES:
            held = 0
            for _ in range(args.gradings):
                reference, submission, labels = grading(rng, runs, per_run, between)
                low, high = stats.speedup_interval(reference, submission, runs=labels)
                held += low <= 100 <= high
                widths.append((high - low) / 100)
            cells.append(f"{held / args.gradings:.0%}")
        print(
            f"| {runs} run(s) of {per_run} | " + " | ".join(cells) + f" | {np.median(widths[-args.gradings :]):.1%} |"
        )


if __name__ == "__main__":
    main()
