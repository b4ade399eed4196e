"""Grading part: huge pages for the sandbox's shared memory (issue 15, item 4).

Every input and every answer crosses the sandbox in a memfd, which is shared
memory: it gets huge pages only under the kernel's shmem mode
(/sys/kernel/mm/transparent_hugepage/shmem_enabled), which most hosts leave at
"never" and scripts/tune_grading_host.sh sets to "within_size". This part
switches that mode (root only; the mode found is restored at the end) and, in
each mode, alternating: what a 128 MB memfd costs the harness (allocate, fill,
map, free; the medians of MEMFD_REPEATS), and full gradings of the two
benchmarked exercises' model solutions: wall time, the harness's own work
beyond the measured calls, and the speedup.
"""

import mmap
import os
import time

import numpy as np

from bench_stats import median, rounded
from grading_setup import bank_exercise, benchmark_seconds, submission_code, timed_backend

SHMEM_MODE = "/sys/kernel/mm/transparent_hugepage/shmem_enabled"
MODES = ("never", "within_size")
MEMFD_BYTES = 128 << 20
MEMFD_REPEATS = 9
#: (exercise, model solution, gradings per mode): fuse-elementwise-chain moves the most
#: memory per call; python-loop-to-numpy is the grading-time target's exercise.
CASES = (("fuse-elementwise-chain", "fused.py", 3), ("python-loop-to-numpy", "numpy_honest.py", 2))


def current_mode():
    text = open(SHMEM_MODE).read()
    return text[text.index("[") + 1 : text.index("]")]


def set_mode(mode):
    with open(SHMEM_MODE, "w") as handle:
        handle.write(mode)


def memfd_costs():
    """Milliseconds for one 128 MB memfd: allocated as a result memfd is
    (fallocate), filled as an input memfd is (pwrite), mapped as a runner maps
    its inputs (MAP_POPULATE), and freed (close): medians of MEMFD_REPEATS."""
    data = np.random.default_rng(0).uniform(-30.0, 30.0, MEMFD_BYTES // 8).view(np.uint8)
    rows = []
    for _ in range(MEMFD_REPEATS):
        started = time.perf_counter()
        spare = os.memfd_create("bench-result", os.MFD_CLOEXEC)
        os.posix_fallocate(spare, 0, MEMFD_BYTES)
        allocated = time.perf_counter()
        inputs = os.memfd_create("bench-inputs", os.MFD_CLOEXEC)
        os.ftruncate(inputs, MEMFD_BYTES)
        view, offset = memoryview(data), 0
        while offset < MEMFD_BYTES:
            offset += os.pwrite(inputs, view[offset:], offset)
        filled = time.perf_counter()
        mapping = mmap.mmap(inputs, MEMFD_BYTES, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE, prot=mmap.PROT_READ)
        mapped = time.perf_counter()
        mapping.close()
        freeing = time.perf_counter()
        os.close(spare)
        os.close(inputs)
        freed = time.perf_counter()
        rows.append((allocated - started, filled - allocated, mapped - filled, freed - freeing))
    names = ("allocate_ms", "fill_ms", "map_ms", "free_ms")
    return {name: rounded(1000 * median([row[column] for row in rows]), 2) for column, name in enumerate(names)}


def one_grading(slug, filename, backend):
    from grader.grading import grade

    exercise = bank_exercise(slug)
    started = time.perf_counter()
    report = grade(exercise, submission_code(slug, filename), mode="full", backend=backend)
    elapsed = time.perf_counter() - started
    measured = benchmark_seconds(report)
    return {
        "verdict": report["verdict"],
        "speedup": rounded(report["speedup"]),
        "grade_s": rounded(elapsed, 2),
        "harness_work_s": rounded(backend.runs[-1] - measured, 3),
    }


def part_shmem(args):
    if os.geteuid() != 0:
        return {"skipped": "needs root to switch the shmem huge pages mode", "passes": True}
    found = current_mode()
    backend = timed_backend()
    results = {mode: {"memfd": [], "gradings": {slug: [] for slug, _, _ in CASES}} for mode in MODES}
    rounds = max(count for _, _, count in CASES)
    try:
        for number in range(1, rounds + 1):
            for mode in MODES:
                set_mode(mode)
                results[mode]["memfd"].append(memfd_costs())
                for slug, filename, count in CASES:
                    if number > count:
                        continue
                    grading = one_grading(slug, filename, backend)
                    results[mode]["gradings"][slug].append(grading)
                    print(
                        f"  shmem {mode} #{number} {slug}: {grading['verdict']} {grading['speedup']}x in "
                        f"{grading['grade_s']} s, harness work {grading['harness_work_s']} s",
                        flush=True,
                    )
    finally:
        set_mode(found)
    return {"mode_found": found, "modes": {mode: summary(results[mode]) for mode in MODES}, "passes": True}


def summary(result):
    memfd = {name: rounded(median([row[name] for row in result["memfd"]]), 2) for name in result["memfd"][0]}
    gradings = {}
    for slug, rows in result["gradings"].items():
        gradings[slug] = {
            "gradings": len(rows),
            "median_grade_s": rounded(median([row["grade_s"] for row in rows]), 2),
            "median_harness_work_s": rounded(median([row["harness_work_s"] for row in rows]), 3),
            "median_speedup": rounded(median([row["speedup"] for row in rows if row["speedup"] is not None])),
            "every_grading": rows,
        }
    return {"memfd_128mb": memfd, "gradings": gradings}
