"""How many coverage intervals hold the median of their run for each size of the
host's between-gradings term (grader/harness/stats.py, BETWEEN_GRADINGS_SD):

    .venv/bin/python bench/host_term_study.py bench/results/grading.json [more results files]
    .venv/bin/python bench/host_term_study.py <(git show 540c38d:bench/results/grading.json)   # harness 1.17's runs

For every coverage result in the files (grading_bench.py --part coverage), each
grading's interval is recomputed from its recorded headline calls with
stats.reported_interval, its BETWEEN_GRADINGS_SD set to each term in TERMS in
turn (0 gives the bootstrap alone: runs, then pairs). Reported per run and term:
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


def study(label, part):
    gradings = [(point, calls) for point, calls in zip(part["speedups"], part["calls"], strict=True) if calls]
    centre = float(np.median([point for point, _ in gradings]))
    row = {"run": label, "gradings": len(gradings)}
    chosen = stats.BETWEEN_GRADINGS_SD
    try:
        for term in TERMS:
            stats.BETWEEN_GRADINGS_SD = term
            held, widths = 0, []
            for point, calls in gradings:
                low, high = stats.reported_interval(
                    calls["reference_s"], calls["submission_s"], calls["echo_s"], runs=calls["runs"]
                )
                held += low <= centre <= high
                widths.append((high - low) / point)
            row[f"{term:.0%}"] = f"{held}/{len(gradings)}, width {np.median(widths):.1%}"
    finally:
        stats.BETWEEN_GRADINGS_SD = chosen
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
