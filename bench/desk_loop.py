"""What python-loop-to-numpy's model solution costs in a plain timing loop at a
desk, by what happens between its calls:

    .venv/bin/python bench/desk_loop.py [--rounds 12]

One process pinned to one CPU, the exercise's own input at its largest size,
NumPy's defaults. Per round, one timed call after each of: nothing (calls back to
back, as the plain method's trials run), 51 MB of fresh memory touched page by
page and unmapped (what grader/harness/warm.py does before a grading's call), and
a 1.5 s busy wait (the other side's call in a grading, during which an untuned
virtual machine may hand freed memory back to its hypervisor). Then, each on a
fresh copy of the input and with the harness's own warm-up (warm.warm) last: the
copy written, then the busy wait (a side that went second until harness 1.18,
its input written before the other side's call), and the busy wait, then the
copy written (since 1.18). Reported: the median of each in milliseconds, with
the host's load and settings.
"""

import argparse
import json
import mmap
import os
import sys
import time

from common import ROOT
from grading_headline import HEADLINE_SLUG, HEADLINE_SUBMISSION
from grading_setup import host_tuning, medians_with_host

sys.path.insert(0, str(ROOT))

from grader.harness import warm  # noqa: E402

PAUSE_S = 1.5


def load(path):
    namespace = {"__name__": path.stem}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def touch_fresh_memory(nbytes):
    """Map `nbytes` of fresh memory, write a byte in every page, unmap it."""
    region = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for offset in range(0, nbytes, mmap.PAGESIZE):
        region[offset] = 1
    region.close()


def busy_wait(seconds):
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    [exercise] = (ROOT / "questions" / "bank").glob(f"*/{HEADLINE_SLUG}")
    transform = load(ROOT / "bench" / "submissions" / HEADLINE_SLUG / HEADLINE_SUBMISSION)["transform"]
    size = 6_400_000
    (x,) = load(exercise / "inputs.py")["make_inputs"](size, int.from_bytes(os.urandom(4), "little"))
    warmed = x.nbytes + (1 << 21)

    def written_then_paused():
        fresh = x.copy()
        busy_wait(PAUSE_S)
        warm.warm(warmed)
        return fresh

    def paused_then_written():
        busy_wait(PAUSE_S)
        fresh = x.copy()
        warm.warm(warmed)
        return fresh

    # Each returns the input the timed call gets.
    before_call = {
        "back to back": lambda: x,
        "after touching 51 MB of fresh memory": lambda: touch_fresh_memory(warmed) or x,
        f"after a {PAUSE_S:g} s busy wait": lambda: busy_wait(PAUSE_S) or x,
        f"fresh input written, a {PAUSE_S:g} s busy wait, warm-up (harness 1.17)": written_then_paused,
        f"a {PAUSE_S:g} s busy wait, fresh input written, warm-up (harness 1.18)": paused_then_written,
    }
    tuning = host_tuning()
    transform(x)  # warm-up
    times = {name: [] for name in before_call}
    for _ in range(args.rounds):
        for name, prepare in before_call.items():
            given = prepare()
            started = time.perf_counter()
            answer = transform(given)
            times[name].append(time.perf_counter() - started)
            del answer, given
    result = {
        "size": size,
        "rounds": args.rounds,
        **medians_with_host(times, tuning),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
