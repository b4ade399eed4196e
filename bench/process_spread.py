"""How far the same work's time moves from one fresh process to the next on this host,
with NumPy's transparent huge pages on (its default) and off:

    .venv/bin/python bench/process_spread.py [--processes 8]

Each round starts a fresh interpreter pinned to one CPU that times python-loop-to-numpy's
model solution on 6.4 M elements (15 calls after a warm-up; fresh input each call, as
in a grading) and the reference's Python loop on 800 k elements (3 calls). The modes
alternate round by round so both meet the host in the same minutes. Reported per mode
and kind of work: the median of each process's median, and the spread between
processes ((max - min) / median). A grading's headline is the ratio of the two kinds,
so it cannot repeat more tightly than they do.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

SCRIPT = """
import json, os, time
import numpy as np
os.sched_setaffinity(0, {int(os.environ["PIN_CPU"])})
def answer(x):
    y = x * 2.0
    y += 1.0
    return np.square(y, out=y)
def loop(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = (2.0 * x[i] + 1.0) ** 2
    return out
rng = np.random.default_rng()
def timed(function, size, calls):
    function(rng.uniform(-30.0, 30.0, size))
    times = []
    for _ in range(calls):
        x = rng.uniform(-30.0, 30.0, size)
        started = time.perf_counter()
        function(x)
        times.append(time.perf_counter() - started)
    return float(np.median(times))
print(json.dumps({"vectorised_s": timed(answer, 6_400_000, 15), "python_loop_s": timed(loop, 800_000, 3)}))
"""


def one_process(huge_pages, cpu):
    environment = {key: value for key, value in os.environ.items() if key != "NUMPY_MADVISE_HUGEPAGE"}
    environment.update(PIN_CPU=str(cpu), OPENBLAS_NUM_THREADS="1")
    if not huge_pages:
        environment["NUMPY_MADVISE_HUGEPAGE"] = "0"
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=environment, capture_output=True, text=True, check=True)
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
            print(f"| {'on (default)' if huge_pages else 'off'} | {label} | {len(values)} | {middle * 1e3:.1f} ms | "
                  f"{(values.max() - values.min()) / middle:.1%} |")


if __name__ == "__main__":
    main()
