"""grader.grading: verdicts from the real harness in the real sandbox, and the
host's own decisions when no trustworthy report comes back."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from grader import grading
from grader.errors import PlatformError
from grader.harness.protocol import format_report
from grader.sandbox.base import HARNESS_MEMORY_BYTES, SandboxResult
from grader.validation import validate_exercise
from grader.verdicts import Verdict

from .conftest import BUSY_PROOF_SIZES, ENDLESS, MEMORY_HOG, RAISES, TINY_FILES, TINY_SPEC, WRONG_ANSWER, needs_harness

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
JOB = {"mode": "full", "limits": grading.exercise_limits(TINY_SPEC)}


def short_budget(exercise, **limits):
    spec = {**exercise.spec, "limits": {**exercise.spec["limits"], "time_s": 3, **limits}}
    return grading.Exercise(exercise.slug, spec, exercise.files)


# -- with the real harness ---------------------------------------------------------


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_model_solution_is_accepted_with_numbers(busy_proof_tiny_exercise):
    report = grading.grade(busy_proof_tiny_exercise, TINY_FILES["solution.py"])
    assert report["verdict"] == Verdict.ACCEPTED, report
    assert report["hardware"] == "cpu" and report["mode"] == "full"
    assert report["speedup"] > 1 and report["speedup_ci"][0] <= report["speedup"] <= report["speedup_ci"][1]
    assert [row["size"] for row in report["sizes"]] == BUSY_PROOF_SIZES
    assert all(row["correct"] for row in report["sizes"])
    assert set(grading.REPORT_KEYS) <= set(report)


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_time_a_busy_loop_held_the_runners_cpu_is_taken_off_its_calls(busy_proof_tiny_exercise):
    """Harness 1.15: inside the sandbox's own pid namespace the runner's threads and
    pids hold still through a call, so the time another process held its CPU is
    measured and taken off; with a busy loop on every CPU some call had some."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in os.sched_getaffinity(0)]
    for process, cpu in zip(busy, sorted(os.sched_getaffinity(0)), strict=True):
        os.sched_setaffinity(process.pid, {cpu})
    try:
        report = grading.grade(busy_proof_tiny_exercise, TINY_FILES["solution.py"])
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert report["verdict"] == Verdict.ACCEPTED, report["message"]
    calls = report["sizes"][-1]["calls"]
    assert calls["submission_waited_s"] is not None and calls["reference_waited_s"] is not None
    assert max(calls["submission_waited_s"] + calls["reference_waited_s"]) > 0


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_check_mode_uses_the_small_sizes(tiny_exercise):
    report = grading.grade(tiny_exercise, TINY_FILES["solution.py"], mode="check")
    assert report["verdict"] == Verdict.ACCEPTED and report["mode"] == "check"
    assert [row["size"] for row in report["sizes"]] == TINY_SPEC["check_sizes"]
    assert all(row["correct"] and row["speedup"] is None for row in report["sizes"])  # correctness only, no timing
    assert report["speedup"] is None


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_check_mode_passes_on_the_harness_progress(tiny_exercise):
    seen = []
    report = grading.grade(tiny_exercise, TINY_FILES["solution.py"], mode="check", progress=seen.append)
    assert report["verdict"] == Verdict.ACCEPTED
    assert seen and all(isinstance(update, dict) and update.get("phase") for update in seen)


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_an_exercises_check_py_decides_the_values(tiny_exercise):
    check = "def check(expected, got, args):\n    return False, 'no value is good enough here'\n"
    checked = grading.Exercise(tiny_exercise.slug, tiny_exercise.spec, {**tiny_exercise.files, "check.py": check})
    report = grading.grade(checked, TINY_FILES["solution.py"], mode="check")
    assert report["verdict"] == Verdict.WRONG_ANSWER
    assert report["failure"]["check"] == "no value is good enough here"


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_wrong_answer_says_where(tiny_exercise):
    report = grading.grade(tiny_exercise, WRONG_ANSWER)
    assert report["verdict"] == Verdict.WRONG_ANSWER
    assert report["failure"]["expected"] != report["failure"]["got"]


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_exception_is_a_runtime_error_with_traceback(tiny_exercise):
    report = grading.grade(tiny_exercise, RAISES)
    assert report["verdict"] == Verdict.RUNTIME_ERROR and "boom" in report["failure"]["traceback"]


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_endless_loop_is_a_time_limit(tiny_exercise):
    report = grading.grade(short_budget(tiny_exercise), ENDLESS)
    assert report["verdict"] == Verdict.TIME_LIMIT


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_memory_hog_is_a_memory_limit(tiny_exercise):
    report = grading.grade(short_budget(tiny_exercise, memory_mb=256), MEMORY_HOG)
    assert report["verdict"] in (Verdict.MEMORY_LIMIT,), report


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
def test_validation_accepts_the_solution_and_refuses_a_broken_one():
    result = validate_exercise(dict(TINY_SPEC), dict(TINY_FILES))
    assert result.ok and result.report["verdict"] == Verdict.ACCEPTED
    broken = validate_exercise(dict(TINY_SPEC), {**TINY_FILES, "solution.py": WRONG_ANSWER})
    assert not broken.ok and "wrong_answer" in broken.message


def test_validation_reports_missing_files():
    result = validate_exercise(dict(TINY_SPEC), {"reference.py": "x"})
    assert not result.ok and "inputs.py" in result.message and "solution.py" in result.message


# -- host decisions without a trustworthy report ------------------------------------------


def sandbox_result(**fields):
    defaults = {"exit_code": 0, "details": {"sandbox_started": True}}
    return SandboxResult(**{**defaults, **fields})


@pytest.mark.parametrize(
    "fields, verdict",
    [
        ({"timed_out": True, "exit_code": None, "signal": 9}, Verdict.TIME_LIMIT),
        ({"oom_killed": True, "exit_code": None, "signal": 9}, Verdict.MEMORY_LIMIT),
        ({"output_exceeded": True, "exit_code": None, "signal": 9}, Verdict.OUTPUT_LIMIT),
        ({"exit_code": 0}, Verdict.REJECTED),
        ({"exit_code": None, "signal": 11, "stderr": b"Segmentation fault"}, Verdict.REJECTED),
    ],
)
def test_verdict_from_the_sandbox_alone(tiny_exercise, fields, verdict):
    report = grading.interpret(sandbox_result(**fields), None, tiny_exercise, JOB)
    assert report["verdict"] == verdict and report["message"]
    assert report["hardware"] == "cpu" and report["sizes"] == []


def test_rejected_message_is_honest(tiny_exercise):
    report = grading.interpret(sandbox_result(exit_code=None, signal=11, stderr=b"boom"), None, tiny_exercise, JOB)
    assert "signal 11" in report["message"] and report["failure"]["stderr_tail"] == "boom"


def test_forged_report_is_not_trusted(tiny_exercise):
    forged = format_report(b"guessed-key", {"verdict": "accepted", "speedup": 1000.0})
    key, _ = grading.new_secret()
    result = sandbox_result(stdout=forged.encode() + b"\n")
    signed = grading.parse_report(key, result.stdout)
    assert signed is None
    assert grading.interpret(result, signed, tiny_exercise, JOB)["verdict"] == Verdict.REJECTED


def test_signed_runtime_error_after_an_oom_kill_is_a_memory_limit(tiny_exercise):
    signed = {"verdict": Verdict.RUNTIME_ERROR, "message": "killed by signal 9"}
    report = grading.interpret(sandbox_result(oom_killed=True), signed, tiny_exercise, JOB)
    assert report["verdict"] == Verdict.MEMORY_LIMIT and "512 MiB" in report["message"]


def test_sandbox_that_never_started_is_a_platform_error(tiny_exercise):
    result = sandbox_result(exit_code=1, details={"sandbox_started": False, "bwrap_error": "bwrap: No permissions"})
    with pytest.raises(PlatformError) as caught:
        grading.interpret(result, None, tiny_exercise, JOB)
    assert caught.value.error_id == "sandbox.setup_failed"


def test_unknown_verdict_from_the_harness_is_a_platform_error(tiny_exercise):
    with pytest.raises(PlatformError):
        grading.interpret(sandbox_result(), {"verdict": "great"}, tiny_exercise, JOB)


def test_limits_are_defaulted_and_clamped():
    limits = grading.exercise_limits({"limits": {"time_s": 10_000, "memory_mb": 256}})
    assert limits == {"time_s": 600, "memory_mb": 256, "processes": 32, "output_kb": 256, "disk_mb": 64}
    assert grading.exercise_limits({"limits": {"time_s": 90}}, mode="check")["time_s"] == 30
    assert grading.exercise_limits({"limits": {"time_s": 10}}, mode="check")["time_s"] == 10
    assert grading.exercise_limits({"limits": {"time_s": 90}}, mode="full")["time_s"] == 90
    sandbox = grading.sandbox_limits(limits)
    assert sandbox.wall_time_s == 620
    # Each runner's 256 MiB, the 64 MiB tmpfs and the supervisor's allowance: one side never squeezes the other.
    assert sandbox.memory_bytes == 2 * 256 * 1024**2 + 64 * 1024**2 + HARNESS_MEMORY_BYTES


def test_job_json_in_check_mode(tiny_exercise):
    job = grading.build_job(tiny_exercise, "check")
    assert job["sizes"] == TINY_SPEC["check_sizes"] and job["mode"] == "check"
    assert json.loads(json.dumps(job)) == job


def test_harness_files_are_copied_as_a_package():
    names = [name for name, _ in grading.harness_files()]
    assert "harness/__init__.py" in names and "harness/protocol.py" in names
    assert all(name.startswith("harness/") and "__pycache__" not in name for name in names)


# -- the CPUs an exercise is graded on ----------------------------------------------

#: The reference reports the CPUs its runner may use and the thread count Numba was
#: given; a submission passes only by returning the same two numbers.
CPU_COUNT_FILES = {
    "reference.py": (
        "import os\n\nimport numba\nimport numpy as np\n\n\n"
        "def cpus(x):\n"
        "    return np.array([len(os.sched_getaffinity(0)), numba.config.NUMBA_NUM_THREADS])\n"
    ),
    "inputs.py": "import numpy as np\n\n\ndef make_inputs(size, seed):\n    return (np.zeros(size),)\n",
}


def cpu_count_exercise(**spec):
    base = {**TINY_SPEC, "entry_point": "cpus", "edge_sizes": [], "tolerance": {"rtol": 0.0, "atol": 0.0}}
    return grading.Exercise("cpu-count", {**base, **spec}, CPU_COUNT_FILES)


def answering(count):
    return f"import numpy as np\n\n\ndef cpus(x):\n    return np.array([{count}, {count}])\n"


def test_the_job_carries_the_cpus_the_exercise_declares_up_to_the_hosts():
    available = len(os.sched_getaffinity(0))
    assert grading.build_job(cpu_count_exercise(), "full")["cpus"] == 1  # no `cpus`: one, as always
    assert grading.build_job(cpu_count_exercise(cpus=2), "full")["cpus"] == min(2, available)
    assert grading.build_job(cpu_count_exercise(cpus=64), "full")["cpus"] == available
    assert grading.build_job(cpu_count_exercise(cpus="all"), "full")["cpus"] == available
    assert grading.build_job(cpu_count_exercise(cpus=2, target="gpu"), "full")["cpus"] == 1
    limits = grading.sandbox_limits(grading.exercise_limits(TINY_SPEC), cpus=2)
    assert limits.cpus == 2 and limits.cpu_quota == 2.5


@pytest.mark.sandbox
@needs_bwrap
@needs_harness
@pytest.mark.parametrize("declared", [None, 2, "all"])
def test_the_sandbox_gives_the_runners_the_declared_cpus_and_says_how_many(declared):
    spec = {} if declared is None else {"cpus": declared}
    given = grading.build_job(cpu_count_exercise(**spec), "check")["cpus"]
    report = grading.grade(cpu_count_exercise(**spec), answering(given), mode="check")
    assert report["verdict"] == Verdict.ACCEPTED, report
    assert report["cpus"] == given
    if given > 1:  # one CPU fewer is a wrong answer: the runners really got `given`
        fewer = grading.grade(cpu_count_exercise(**spec), answering(given - 1), mode="check")
        assert fewer["verdict"] == Verdict.WRONG_ANSWER, fewer
