"""How far the same work's time moves from one fresh process to the next on this host,
with NumPy's transparent huge pages on (its default) and off:

    .venv/bin/python bench/process_spread.py [--processes 8]

Each round starts a fresh interpreter pinned to one CPU that times python-loop-to-numpy's
model solution (bench/submissions) on 6.4 M elements (15 calls after a warm-up; fresh
input from the exercise's own inputs.py each call, as in a grading) and the exercise's
reference loop on 800 k elements (3 calls). The modes alternate round by round so
both meet the host in the same minutes. Reported per mode and kind of work: the
median of each process's median, and the spread between processes ((max - min) /
median). A grading's headline is the ratio of the two kinds,
so it cannot repeat more tightly than they do.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = next((ROOT / "questions" / "bank").glob("*/python-loop-to-numpy"))
ANSWER = ROOT / "bench" / "submissions" / "python-loop-to-numpy" / "numpy_honest.py"

#: Run in a fresh interpreter: the files a grading of python-loop-to-numpy uses (the model
#: solution the grading bench grades, the bank's reference and its input generator).
SCRIPT = """
import json, os, sys, time, types
import numpy as np
os.sched_setaffinity(0, {int(os.environ["PIN_CPU"])})
def load(path, name):
    module = types.ModuleType(name)
    exec(compile(open(path).read(), path, "exec"), module.__dict__)
    return module
exercise, answer_path = sys.argv[1:3]
answer = load(answer_path, "answer").transform
loop = load(os.path.join(exercise, "reference.py"), "reference").transform
make_inputs = load(os.path.join(exercise, "inputs.py"), "inputs").make_inputs
def timed(function, size, calls):
    function(*make_inputs(size, 0))
    times = []
    for call in range(1, calls + 1):
        args = make_inputs(size, call)
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return float(np.median(times))
print(json.dumps({"vectorised_s": timed(answer, 6_400_000, 15), "python_loop_s": timed(loop, 800_000, 3)}))
"""


def one_process(huge_pages, cpu):
    environment = {key: value for key, value in os.environ.items() if key != "NUMPY_MADVISE_HUGEPAGE"}
    environment.update(PIN_CPU=str(cpu), OPENBLAS_NUM_THREADS="1")
    if not huge_pages:
        environment["NUMPY_MADVISE_HUGEPAGE"] = "0"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(EXERCISE), str(ANSWER)],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=8, help="fresh processes per mode (default %(default)s)")
    args = parser.parse_args()
    cpu = max(os.sched_getaffinity(0))
    results = {True: [], False: []}
    for _ in range(args.processes):
        for huge_pages in (True, False):
            results[huge_pages].append(one_process(huge_pages, cpu))
    print("| NumPy huge pages | work | processes | median time | spread between processes |")
    print("| --- | --- | ---: | ---: | ---: |")
    for huge_pages, rows in results.items():
        for key, label in (("vectorised_s", "vectorised answer, 6.4 M"), ("python_loop_s", "Python loop, 800 k")):
            values = np.array([row[key] for row in rows])
            middle = float(np.median(values))
            print(
                f"| {'on (default)' if huge_pages else 'off'} | {label} | {len(values)} | {middle * 1e3:.1f} ms | "
                f"{(values.max() - values.min()) / middle:.1%} |"
            )


if __name__ == "__main__":
    main()
