"""Grade the bank's GPU exercises on a GPU machine that has no Docker engine.

    python3 scripts/gpu_grade_bank.py [--out results.json] [--solution-runs 2] [--deadline-s 360] [--only SLUG ...]

The GPU sandbox is Docker with the GPU passed through (grader/sandbox/docker.py). A
GPU machine lent for a few minutes (docs/testing.md, "On a GPU") has CUDA and CuPy
but no Docker engine, so this script runs the harness as a plain child process
instead: the same job, the same harness, the same signed report and the same
roofline as grader.grading.grade, only without the sandbox's isolation. It grades
the bank's own model solutions and starters, never a learner's code.

The harness runs on this Python with -I (isolated), as in the sandbox image, so
this Python needs what the sandbox image has (requirements/sandbox.txt: pyseccomp
and NumPy) and CuPy; the script says which is missing before it starts.

What it does, in order, within --deadline-s (it starts no grading past it):
  1. measures the GPU's roofs (grader/hostbench.py gpu) and stores them as a GPU
     worker would (grader.host_limits), so each report carries a roofline;
  2. grades every GPU exercise's (or each --only one's) solution.py --solution-runs times (the spread
     between runs is the repeatability on this device) and starter.py once.
Prints one line per grading and writes every report, with the roofs, to --out.
Exits 1 when a solution or starter is not accepted or a solution is not faster.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")

import django  # noqa: E402

django.setup()

from grader import host_limits  # noqa: E402
from grader.grading import Exercise, grade  # noqa: E402
from grader.harness import feedback  # noqa: E402
from grader.sandbox.base import Sandbox, SandboxResult  # noqa: E402
from questions.loader import default_bank_dir, read_bank  # noqa: E402


class ChildProcess(Sandbox):
    """The job directory in a temporary folder and the command as a child process:
    the Sandbox interface with no isolation at all (wall limit only), for trusted
    code on a machine without the GPU sandbox."""

    def _setup(self):
        self.directory = Path(tempfile.mkdtemp(prefix="hotpath-gpu-job-"))

    def _cleanup(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def write_file(self, relative_path, content):
        path = self.directory / relative_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")

    def run(self, command, stdin=b"", on_stdout=None):
        argv = [
            sys.executable if part == "python3" else part.replace(self.JOB_MOUNT, str(self.directory))
            for part in command
        ]
        started = time.monotonic()
        try:
            done = subprocess.run(
                argv, input=stdin, capture_output=True, timeout=self.limits.wall_time_s, cwd=self.directory
            )
        except subprocess.TimeoutExpired as expired:
            return SandboxResult(
                exit_code=None,
                timed_out=True,
                stdout=expired.stdout or b"",
                stderr=expired.stderr or b"",
                wall_s=time.monotonic() - started,
            )
        return SandboxResult(
            exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr, wall_s=time.monotonic() - started
        )


#: What the harness and the GPU exercises import inside the sandbox.
SANDBOX_MODULES = ("numpy", "pyseccomp", "cupy")


def missing_sandbox_modules():
    """The SANDBOX_MODULES this Python cannot import in isolated mode, as the harness runs."""
    probe = (
        "import importlib.util, sys; print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe, *SANDBOX_MODULES], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def failure_details(report):
    """The failure's fields, one per line, for a grading that was not accepted."""
    failure = report.get("failure") or {}
    return "\n".join(f"    {key}: {str(value).strip()[-1500:]}" for key, value in failure.items() if value)


def gpu_exercises(only=()):
    """The bank's GPU exercises by slug, or only those named (a device lent for
    minutes may not have time for all)."""
    entries, _errors = read_bank(default_bank_dir())
    return [
        Exercise(slug=entry.slug, spec=entry.spec, files=entry.files)
        for entry in sorted(entries, key=lambda entry: entry.slug)
        if entry.spec is not None and entry.spec.get("target") == "gpu" and (not only or entry.slug in only)
    ]


def summary_line(slug, answer, report, seconds):
    roofline = report.get("roofline") or {}
    per_size = [row["submission"] for row in roofline.get("sizes", []) if row.get("submission")]
    best = max(
        per_size, key=lambda figures: max(figures["bandwidth_fraction"], figures["compute_fraction"]), default=None
    )
    roof = (
        (
            f", roofline {feedback.three_figures(best['gbs'])} GB/s ({feedback.percent(best['bandwidth_fraction'])}) "
            f"{feedback.three_figures(best['gflops'])} GFLOP/s ({feedback.percent(best['compute_fraction'])})"
        )
        if best
        else ""
    )
    speedup = "-" if report["speedup"] is None else f"{report['speedup']:.3g}"
    interval = "-" if not report.get("speedup_ci") else "[{:.3g}, {:.3g}]".format(*report["speedup_ci"])
    return (
        f"{slug:28} {answer:12} {report['verdict']:13} speedup {speedup} CI {interval} "
        f"on {report['hardware']} in {seconds:.1f} s{roof}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="gpu-bank.json", help="where to write every report and the roofs")
    parser.add_argument("--solution-runs", type=int, default=2, help="gradings of each model solution")
    parser.add_argument("--deadline-s", type=float, default=300, help="start no grading after this many seconds")
    parser.add_argument("--only", action="append", default=[], help="grade only this exercise (repeatable)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    missing = missing_sandbox_modules()
    if missing:
        print(
            f"FAIL  {sys.executable} -I cannot import {', '.join(missing)}: install them into it "
            "(pip install pyseccomp, or the wheels of requirements/sandbox.txt)"
        )
        return 1
    try:
        roofs = host_limits.measure_and_store("gpu", backend=ChildProcess)
    except host_limits.MeasurementFailed as exc:
        print(f"FAIL  the GPU's roofs: {exc}")
        return 1
    print(
        f"GPU roofs on {roofs['device']}: {feedback.three_figures(roofs['bandwidth_gbs'])} GB/s, "
        f"{feedback.three_figures(roofs['compute_gflops'])} GFLOP/s in {roofs['compute_dtype']}",
        flush=True,
    )
    results, failures = {"roofs": roofs, "gradings": []}, []
    exercises = gpu_exercises(set(args.only))
    plan = [(exercise, "solution.py") for exercise in exercises for _ in range(args.solution_runs)]
    plan += [(exercise, "starter.py") for exercise in exercises]
    for exercise, answer in plan:
        if time.monotonic() - started > args.deadline_s:
            failures.append(f"{exercise.slug} {answer}: not graded, past the {args.deadline_s:g} s deadline")
            continue
        began = time.monotonic()
        report = grade(exercise, exercise.files[answer], backend=ChildProcess)
        print(summary_line(exercise.slug, answer, report, time.monotonic() - began), flush=True)
        results["gradings"].append({"slug": exercise.slug, "answer": answer, "report": report})
        if report["verdict"] != "accepted":
            print(failure_details(report), flush=True)
            failures.append(f"{exercise.slug} {answer}: {report['verdict']}: {report['message']}")
        elif answer == "solution.py" and not report["speedup"] > 1:
            failures.append(f"{exercise.slug} solution.py: speedup {report['speedup']}, not faster than the reference")
    Path(args.out).write_text(json.dumps(results, indent=1, sort_keys=True, default=str))
    for failure in failures:
        print(f"FAIL  {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
