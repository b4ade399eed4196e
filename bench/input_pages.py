"""What the graded code meets when it reads its inputs: a memfd as the harness hands
it over (hugepages.collapse, mapped at a 2 MiB boundary) against the same memfd left
in the pages the host's shmem mode gives, and against NumPy's own array (a
learner's desk):

    .venv/bin/python bench/input_pages.py [--mb 128] [--rounds 9]

Per round: a fresh memfd of float64 values, filled, then summed 5 times through
each mapping; reported are medians over the rounds of one sum's time and of the
collapse itself, with the host's shmem and THP modes. One process, pinned to
one CPU.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader import host_limits  # noqa: E402
from grader.harness import hugepages  # noqa: E402


def timed_sum(array, calls=5):
    array.sum()
    started = time.perf_counter()
    for _ in range(calls):
        array.sum()
    return (time.perf_counter() - started) / calls


def memfd_with(values):
    fd = os.memfd_create("bench-inputs")
    os.pwrite(fd, values.tobytes(), 0)
    return fd


def one_round(values):
    plain_fd, collapsed_fd = memfd_with(values), memfd_with(values)
    try:
        started = time.perf_counter()
        collapsed = hugepages.collapse(collapsed_fd, values.nbytes)
        collapse_s = time.perf_counter() - started
        plain = hugepages.map_aligned(plain_fd, values.nbytes, writable=False).view(np.float64)
        huge = hugepages.map_aligned(collapsed_fd, values.nbytes, writable=False).view(np.float64)
        desk = values.copy()
        return {
            "collapsed": collapsed,
            "collapse_s": collapse_s,
            "sum_host_pages_s": timed_sum(plain),
            "sum_collapsed_s": timed_sum(huge),
            "sum_numpy_array_s": timed_sum(desk),
        }
    finally:
        os.close(plain_fd)
        os.close(collapsed_fd)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    values = np.random.default_rng(0).random(args.mb * (1 << 20) // 8)
    rounds = [one_round(values) for _ in range(args.rounds)]
    result = {
        "mb": args.mb,
        "rounds": args.rounds,
        "shmem_huge_pages": host_limits.transparent_huge_pages(host_limits.SHMEM_HUGE_PAGES),
        "transparent_huge_pages": host_limits.transparent_huge_pages(),
        "collapsed_every_round": all(r["collapsed"] for r in rounds),
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }
    for key in ("collapse_s", "sum_host_pages_s", "sum_collapsed_s", "sum_numpy_array_s"):
        result[key + "_median"] = round(float(np.median([r[key] for r in rounds])), 5)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
