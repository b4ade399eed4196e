"""How many coverage intervals hold the median of their run for each size of the
host's between-gradings term (grader/harness/stats.py, BETWEEN_GRADINGS_SD):

    .venv/bin/python bench/host_term_study.py bench/results/grading.json [more results files]
    .venv/bin/python bench/host_term_study.py <(git show 540c38d:bench/results/grading.json)   # harness 1.17's runs

For every coverage result in the files (grading_bench.py --part coverage), each
grading's interval is recomputed from its recorded headline calls as the bootstrap
alone (runs, then pairs: stats.speedup_interval) and then widened as
stats.reported_interval does, for each term in TERMS. Reported per run and term:
intervals holding the median of the run's figures, and their median width over the
figure; and the standard deviation of the logarithm of the figures themselves.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.harness import stats  # noqa: E402

TERMS = (0.0, 0.02, 0.03, 0.04, 0.05)
Z95 = 1.959963984540054


def widened(point, interval, term):
    """(low, high) of `interval` around `point` with `term` added in quadrature in logarithms."""
    host = Z95 * term
    low, high = np.log(interval)
    centre = np.log(point)
    return np.exp(centre - np.hypot(centre - low, host)), np.exp(centre + np.hypot(high - centre, host))


def study(label, part):
    gradings = [(point, calls) for point, calls in zip(part["speedups"], part["calls"], strict=True) if calls]
    centre = float(np.median([point for point, _ in gradings]))
    row = {"run": label, "gradings": len(gradings)}
    for term in TERMS:
        held, widths = 0, []
        for point, calls in gradings:
            interval = stats.speedup_interval(
                calls["reference_s"], calls["submission_s"], calls["echo_s"], runs=calls["runs"]
            )
            low, high = widened(point, interval, term)
            held += low <= centre <= high
            widths.append((high - low) / point)
        row[f"{term:.0%}"] = f"{held}/{len(gradings)}, width {np.median(widths):.1%}"
    row["figures' SD"] = f"{np.std(np.log([point for point, _ in gradings]), ddof=1):.1%}"
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+")
    args = parser.parse_args()
    for path in args.results:
        with open(path) as handle:
            parts = json.load(handle)["parts"]
        for key, part in parts.items():
            if key.startswith("coverage"):
                label = f"{key} {part['measured_at'][:16]} {part['host']['tuning'][-1].split('CPU: ')[-1]}"
                print(json.dumps(study(label, part)))


if __name__ == "__main__":
    main()
