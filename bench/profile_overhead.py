"""How much slower the profiled call runs than a timed one: the figure behind
supervisor.PROFILE_SLOWDOWN, which decides the size a grading profiles at.

    .venv/bin/python bench/profile_overhead.py [--repeats 7]

Two answers to python-loop-to-numpy, pinned to one CPU in this process: a Python
loop (near the worst case for a line timer: every element runs three cheap traced lines) on
100 k elements, and the NumPy model solution (bench/submissions) on 6.4 M. Each
is called plain, under cProfile, and under cProfile with the line timer
(grader/harness/lines.py), as the runner's profiled call does; the median of
`--repeats` calls of each, after a warm-up, and the slowdowns against plain.
"""

import argparse
import cProfile
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.harness.lines import LineTimer  # noqa: E402

LOOP_ANSWER = """
import numpy as np


def transform(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        v = 2.0 * x[i] + 1.0
        out[i] = v * v
    return out
"""
VECTOR_ANSWER = ROOT / "bench" / "submissions" / "python-loop-to-numpy" / "numpy_honest.py"


def load(source, path):
    namespace = {}
    exec(compile(source, path, "exec"), namespace)
    return namespace["transform"]


def median_seconds(call, repeats):
    call()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(name, function, path, size, repeats):
    x = np.random.default_rng(0).uniform(-30.0, 30.0, size)

    def profiled():
        cProfile.Profile().runcall(function, x)

    def profiled_by_line():
        cProfile.Profile().runcall(LineTimer(path).run, function, x)

    plain = median_seconds(lambda: function(x), repeats)
    row = {"answer": name, "size": size, "plain_s": plain}
    for label, call in (("cprofile", profiled), ("cprofile_and_lines", profiled_by_line)):
        row[f"{label}_s"] = median_seconds(call, repeats)
        row[f"{label}_slowdown"] = row[f"{label}_s"] / plain
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    loop_path = "<loop answer>"
    rows = [
        measure("python loop", load(LOOP_ANSWER, loop_path), loop_path, 100_000, args.repeats),
        measure(
            "numpy model solution",
            load(VECTOR_ANSWER.read_text(), str(VECTOR_ANSWER)),
            str(VECTOR_ANSWER),
            6_400_000,
            args.repeats,
        ),
    ]
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
