"""Grading part: the headline against a plain measurement (issue 15, item 5).

A learner checks Hotpath's figure at home the way a judge such as KernelBench
times code: one process, pinned to one CPU, NumPy's defaults, a warm-up call,
then the mean over a few trials of each side on one input. This part does that
`rounds` times in fresh processes, interleaved with as many full Hotpath
gradings of the same model solution (grader.grading.grade in the real sandbox),
so both methods meet the same host in the same minutes. It reports each
method's median and spread against issue 30's targets (Hotpath's median within
10% of the plain one, its spread at most half the plain one's, and at most 10% on
a tuned host at load 1 or less), the host's state, and what each Hotpath grading cost: wall time, pairs at
the headline size, the time spent in measured calls and the harness's own work
beyond them (the sandbox's wall time less every measured call), with each grading's
headline calls and where the spread between gradings comes from (bench/spread_sources.py).
"""

import json
import os
import subprocess
import sys
import time

from bench_stats import median, rounded, spread
from grading_setup import (
    bank_exercise,
    benchmark_seconds,
    host_state,
    host_tuning,
    load_average,
    submission_code,
    timed_backend,
)

from spread_sources import decompose

from common import ROOT

HEADLINE_SLUG = "python-loop-to-numpy"
HEADLINE_SUBMISSION = "numpy_honest.py"
#: Hotpath's headline within this fraction of the plain measurement's median.
AGREEMENT_TARGET = 0.10
#: Hotpath's spread (max-min)/median at most this share of the plain method's.
SPREAD_SHARE_TARGET = 0.5
#: ...and at most this, on a tuned host at load QUIET_LOAD or less.
QUIET_SPREAD_TARGET = 0.10
QUIET_LOAD = 1.0
ROUNDS = 10
PLAIN_TRIALS = 5

#: Run in a fresh interpreter per round: the exercise's own reference and inputs,
#: the submission's code, both timed the plain way on one pinned CPU.
PLAIN_SCRIPT = """
import json, os, sys, time, types
directory, submission_path, entry, size, trials, cpu = sys.argv[1:7]
if cpu != "-":
    os.sched_setaffinity(0, {int(cpu)})
def load(path, name):
    module = types.ModuleType(name)
    exec(compile(open(path).read(), path, "exec"), module.__dict__)
    return module
reference = getattr(load(os.path.join(directory, "reference.py"), "reference"), entry)
submission = getattr(load(submission_path, "submission"), entry)
args = load(os.path.join(directory, "inputs.py"), "inputs").make_inputs(int(size), int.from_bytes(os.urandom(4), "little"))
args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
means = {}
for name, function in (("reference", reference), ("submission", submission)):
    function(*args)  # warm-up
    times = []
    for _ in range(int(trials)):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    means[name] = sum(times) / len(times)
print(json.dumps(means))
"""


def plain_measurement(exercise, submission_path, size, cpu):
    """One round of the plain method in a fresh process: reference mean / submission mean."""
    directory = ROOT / "questions" / "bank"
    [exercise_dir] = [path.parent for path in directory.glob(f"*/{exercise.slug}/question.md")]
    environment = {key: value for key, value in os.environ.items() if key != "NUMPY_MADVISE_HUGEPAGE"}
    environment["OPENBLAS_NUM_THREADS"] = "1"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PLAIN_SCRIPT,
            str(exercise_dir),
            str(submission_path),
            exercise.spec["entry_point"],
            str(size),
            str(PLAIN_TRIALS),
            "-" if cpu is None else str(cpu),
        ],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
        timeout=900,
    )
    means = json.loads(done.stdout)
    return means["reference"] / means["submission"], means


def part_headline(args):
    from grader.grading import grade
    from grader.sandbox.cpuslots import claim_runner_cpu

    rounds = 3 if args.quick else ROUNDS
    tuning = host_tuning()
    load_before = load_average()
    exercise = bank_exercise(HEADLINE_SLUG)
    code = submission_code(HEADLINE_SLUG, HEADLINE_SUBMISSION)
    submission_path = ROOT / "bench" / "submissions" / HEADLINE_SLUG / HEADLINE_SUBMISSION
    size = max(exercise.spec["sizes"])
    backend = timed_backend()
    plain, gradings = [], []
    for number in range(1, rounds + 1):
        with claim_runner_cpu() as cpu:
            ratio, means = plain_measurement(exercise, submission_path, size, cpu)
        plain.append({"speedup": ratio, **means})
        print(
            f"  headline plain #{number}: {ratio:.2f}x (reference {means['reference']:.3f} s, submission {means['submission'] * 1e3:.1f} ms)",
            flush=True,
        )
        started = time.perf_counter()
        report = grade(exercise, code, mode="full", backend=backend)
        elapsed = time.perf_counter() - started
        headline = max(report["sizes"], key=lambda entry: entry["size"]) if report["sizes"] else {}
        measured = benchmark_seconds(report)
        gradings.append(
            {
                "verdict": report["verdict"],
                "speedup": report["speedup"],
                "speedup_ci": report["speedup_ci"],
                "grade_s": elapsed,
                "sandbox_wall_s": backend.runs[-1],
                "measured_calls_s": measured,
                "harness_work_s": backend.runs[-1] - measured,
                "pairs": {str(entry["size"]): entry["pairs"] for entry in report["sizes"]},
                "stopped": {str(entry["size"]): entry.get("stopped") for entry in report["sizes"]},
                "headline_pairs": headline.get("pairs"),
                "calls": headline.get("calls"),
            }
        )
        shown = "-" if report["speedup"] is None else f"{report['speedup']:.2f}x"
        print(
            f"  headline hotpath #{number}: {report['verdict']} {shown} in {elapsed:.1f} s "
            f"({headline.get('pairs')} pairs at {size:,}, harness work {gradings[-1]['harness_work_s']:.2f} s)",
            flush=True,
        )
    plain_speedups = [entry["speedup"] for entry in plain]
    hotpath_speedups = [entry["speedup"] for entry in gradings if entry["speedup"] is not None]
    agreement = median(hotpath_speedups) / median(plain_speedups) - 1.0 if hotpath_speedups else None
    checks = spread_checks(hotpath_speedups, plain_speedups, host_state(tuning), load_before[0])
    return {
        "exercise": HEADLINE_SLUG,
        "submission": HEADLINE_SUBMISSION,
        "size": size,
        "plain_trials": PLAIN_TRIALS,
        "target_agreement": AGREEMENT_TARGET,
        "plain": {
            "speedups": rounded(plain_speedups),
            "median": rounded(median(plain_speedups)),
            "spread": rounded(spread(plain_speedups)),
        },
        "hotpath": {
            "speedups": rounded(hotpath_speedups),
            "median": rounded(median(hotpath_speedups)) if hotpath_speedups else None,
            "spread": rounded(spread(hotpath_speedups)) if len(hotpath_speedups) > 1 else None,
            "median_grade_s": rounded(median([entry["grade_s"] for entry in gradings]), 2),
            "median_harness_work_s": rounded(median([entry["harness_work_s"] for entry in gradings]), 3),
            "median_measured_calls_s": rounded(median([entry["measured_calls_s"] for entry in gradings]), 2),
            "gradings": [
                {key: rounded(value, 4) if isinstance(value, float) else value for key, value in entry.items()}
                for entry in gradings
            ],
            "spread_sources": decompose([entry["calls"] for entry in gradings]),
        },
        "agreement": rounded(agreement),
        "host": {
            "state": host_state(tuning),
            "tuning": tuning,
            "load_before": load_before,
            "load_after": load_average(),
        },
        "spread_checks": checks,
        "passes": agreement is not None and abs(agreement) <= AGREEMENT_TARGET and all(checks.values()),
    }


def spread_checks(hotpath, plain, state, load):
    """Issue 30's spread targets that apply to this run: name -> met."""
    if len(hotpath) < 2 or len(plain) < 2:
        return {"enough gradings for a spread": False}
    checks = {"at most half the plain spread": spread(hotpath) <= SPREAD_SHARE_TARGET * spread(plain)}
    if state == "tuned" and load <= QUIET_LOAD:
        checks["at most 10% (tuned, quiet)"] = spread(hotpath) <= QUIET_SPREAD_TARGET
    return checks
