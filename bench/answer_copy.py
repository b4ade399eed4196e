"""What copying an answer into its memfd costs, by where the answer starts in
memory and where it lands in the memfd:

    .venv/bin/python bench/answer_copy.py [--mb 51.2] [--rounds 15]

The harness copies every CPU answer into a sealed memfd inside the timed
window (runner._sealed_result), and the echo times that copy from a blank
carved at a page boundary. NumPy's large arrays start 16 bytes into a page.
Per round and case: a float64 array at the given offset into a page, freshly
written (as an answer is), caches then flushed by streaming a larger array
(except in the case that keeps them as the answer's writing left them, as a
real call's copy finds them), then one pwrite into a pre-allocated memfd (ipc.spare_result_memfd) at the
given offset into its page. Reported: the median over rounds of each copy, in
milliseconds, with the host's load and settings (tuned or untuned, from
scripts/tune_grading_host.sh --check). One process, pinned to one CPU.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grading_setup import host_tuning, medians_with_host  # noqa: E402

from grader.harness import ipc  # noqa: E402

#: (name, answer's offset into its page, its offset into the memfd's page in bytes, caches flushed first).
CASES = (
    ("page-aligned answer, page-aligned copy (the echo)", 0, 0, True),
    ("NumPy's answer (16 bytes in), page-aligned copy (harness 1.12)", 16, 0, True),
    ("NumPy's answer (16 bytes in), copied 16 bytes in (harness 1.13)", 16, 16, True),
    ("the same, caches as the answer's writing left them", 16, 16, False),
)


def copy_seconds(source, memfd_offset):
    fd = ipc.spare_result_memfd(source.nbytes + ipc.PAGE)
    view = memoryview(source.view(np.uint8))
    try:
        started = time.perf_counter()
        while len(view):
            written = os.pwrite(fd, view, memfd_offset)
            view, memfd_offset = view[written:], memfd_offset + written
        return time.perf_counter() - started
    finally:
        os.close(fd)


def answer_at(storage, count, page_offset):
    """`count` float64 of `storage` starting `page_offset` bytes into a page."""
    first = (-storage.ctypes.data % ipc.PAGE + page_offset) // storage.itemsize
    return storage[first : first + count]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=51.2, help="answer size in MB (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    count = int(args.mb * 1e6) // 8
    storage = np.zeros(count + ipc.PAGE)
    tuning = host_tuning()
    times = {name: [] for name, _, _, _ in CASES}
    for _ in range(args.rounds):
        for name, page_offset, memfd_offset, flushed in CASES:
            answer = answer_at(storage, count, page_offset)
            answer += 1.0
            if flushed:
                flush = np.ones(2 * count)
                flush += 1.0
                del flush
            times[name].append(copy_seconds(answer, memfd_offset))
    result = {
        "mb": args.mb,
        "rounds": args.rounds,
        **medians_with_host(times, tuning),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
