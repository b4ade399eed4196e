"""grader.grading without a sandbox: the job and limits the host builds, and what
it reports from a sandbox run. The real-harness runs are in test_grading.py."""

import dataclasses

import pytest

from grader import grading
from grader.errors import PlatformError
from grader.sandbox import get_backend, resolve_backend
from grader.sandbox.base import HARNESS_MEMORY_BYTES, SandboxResult
from questions.models import ExerciseVersion, Question
from submissions.states import Verdict

from .conftest import TINY_FILES, TINY_SPEC

JOB = {"mode": "full", "limits": grading.exercise_limits(TINY_SPEC)}
GPU_SPEC = {**TINY_SPEC, "target": "gpu"}


def sandbox_result(**fields):
    return SandboxResult(**{"exit_code": 0, "details": {"sandbox_started": True}, **fields})


def version(check_code=""):
    """An ExerciseVersion as the database holds one (unsaved: nothing here needs a row)."""
    return ExerciseVersion(
        question=Question(slug="tiny-scale"),
        number=1,
        spec=dict(TINY_SPEC),
        reference_code=TINY_FILES["reference.py"],
        inputs_code=TINY_FILES["inputs.py"],
        solution_code=TINY_FILES["solution.py"],
        starter_code=TINY_FILES["starter.py"],
        check_code=check_code,
    )


# -- the exercise and its job -------------------------------------------------------------


def test_an_exercise_version_keeps_every_file_and_its_check():
    checked = grading.as_exercise(version(check_code="def check(expected, got, args):\n    return True, ''\n"))
    assert checked.slug == "tiny-scale" and checked.spec == TINY_SPEC and checked.target == "cpu"
    assert checked.files == {
        "reference.py": TINY_FILES["reference.py"],
        "inputs.py": TINY_FILES["inputs.py"],
        "solution.py": TINY_FILES["solution.py"],
        "starter.py": TINY_FILES["starter.py"],
        "check.py": "def check(expected, got, args):\n    return True, ''\n",
    }
    assert "check.py" not in grading.as_exercise(version(check_code="  \n")).files


def test_an_exercise_cannot_change_under_a_grading():
    exercise = grading.Exercise("x", {"target": "cpu"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        exercise.slug = "y"


def test_only_exercises_can_be_graded():
    exercise = grading.Exercise("x", {"target": "gpu"})
    assert grading.as_exercise(exercise) is exercise and exercise.target == "gpu"
    assert grading.Exercise("x", {}).target == "cpu"
    with pytest.raises(TypeError, match="expected an Exercise or an ExerciseVersion"):
        grading.as_exercise({"slug": "x"})


def test_grading_refuses_a_bad_mode_or_an_incomplete_exercise_before_any_sandbox():
    exercise = grading.Exercise("tiny", dict(TINY_SPEC), dict(TINY_FILES))
    with pytest.raises(ValueError, match="mode must be one of"):
        grading.grade(exercise, "", mode="quick")
    for missing in ("reference.py", "inputs.py"):
        files = {name: text for name, text in TINY_FILES.items() if name != missing}
        with pytest.raises(PlatformError) as caught:
            grading.grade(grading.Exercise("tiny", dict(TINY_SPEC), files), "")
        assert caught.value.error_id == "grading.exercise_incomplete"


def test_limits_default_when_absent_and_are_clamped_on_both_sides():
    assert grading.exercise_limits({}) == {
        "time_s": 60,
        "memory_mb": 1024,
        "processes": 32,
        "output_kb": 256,
        "disk_mb": 64,
    }
    assert grading.exercise_limits({"limits": None}) == grading.exercise_limits({})
    huge = {key: 10**9 for key in grading.DEFAULT_LIMITS}
    assert grading.exercise_limits({"limits": huge}) == {
        "time_s": 600,
        "memory_mb": 8192,
        "processes": 256,
        "output_kb": 4096,
        "disk_mb": 1024,
    }
    zero = {key: 0 for key in grading.DEFAULT_LIMITS}
    assert grading.exercise_limits({"limits": zero}) == {key: 1 for key in grading.DEFAULT_LIMITS}


def test_sandbox_limits_in_bytes_and_seconds():
    limits = grading.sandbox_limits(
        {"time_s": 40, "memory_mb": 512, "processes": 16, "output_kb": 64, "disk_mb": 16}, cpus=2.0
    )
    assert (limits.wall_time_s, limits.cpu_time_s, limits.cpus) == (60, 120.0, 2.0)
    assert limits.disk_bytes == 16 * 1024 * 1024
    # The whole sandbox's cap: each runner's 512 MiB, the tmpfs and the supervisor's allowance.
    assert limits.memory_bytes == 2 * 512 * 1024 * 1024 + limits.disk_bytes + HARNESS_MEMORY_BYTES
    assert limits.output_bytes == 64 * 1024 and limits.processes == 16
    assert grading.sandbox_limits(JOB["limits"], cpus=0.5).cpu_time_s == 60  # never less CPU time than wall time
    one_cpu = grading.sandbox_limits(JOB["limits"])  # what grade() asks for
    assert (one_cpu.cpus, one_cpu.cpu_time_s) == (1.0, 60)


def test_the_longest_sandbox_run_is_the_constant_celery_relies_on():
    longest = grading.sandbox_limits(grading.exercise_limits({"limits": {"time_s": 10**6}}))
    assert longest.wall_time_s == grading.MAX_SANDBOX_WALL_S == 620


def test_job_in_full_and_check_mode():
    exercise = grading.Exercise("tiny", dict(TINY_SPEC), dict(TINY_FILES))
    full = grading.build_job(exercise, "full")
    assert full == {
        "slug": "tiny",
        "mode": "full",
        "entry_point": "scale",
        "sizes": [2000, 8000],
        "check_sizes": [100],
        "edge_sizes": [0, 1],
        "tolerance": {"rtol": 1e-12, "atol": 0.0},
        "repeats": 3,
        "target": "cpu",
        "allowed_imports": ["numpy", "math"],
        "graded_on": ["time"],
        "limits": {"time_s": 40, "memory_mb": 512, "processes": 16, "output_kb": 64, "disk_mb": 16},
        "cpus": 1,  # graded on one CPU unless the exercise declares more
    }
    check = grading.build_job(exercise, "check")
    assert check["sizes"] == [100] and check["limits"]["time_s"] == 30


def test_job_defaults_for_a_minimal_spec():
    spec = {"entry_point": "scale", "sizes": [10, 20, 30]}
    job = grading.build_job(grading.Exercise("tiny", spec, {}), "check")
    assert job["sizes"] == job["check_sizes"] == [10]  # no check sizes: the smallest graded size
    assert (job["edge_sizes"], job["tolerance"], job["repeats"], job["target"]) == ([], {}, 11, "cpu")
    assert (job["allowed_imports"], job["graded_on"]) == ([], ["time"])
    assert grading.build_job(grading.Exercise("tiny", spec, {}), "full")["sizes"] == [10, 20, 30]


def test_each_run_gets_a_fresh_256_bit_key_sent_as_one_line():
    key, line = grading.new_secret()
    assert len(key) == 64 and int(key, 16) >= 0 and line == key + b"\n"
    assert grading.new_secret()[0] != key


def test_the_backend_comes_from_settings_unless_given(settings):
    settings.SANDBOX_BACKEND = "docker"
    assert resolve_backend() is get_backend("docker")
    assert resolve_backend("bwrap") is get_backend("bwrap")
    backend = get_backend("bwrap")
    assert resolve_backend(backend) is backend


# -- reports ----------------------------------------------------------------------------


def test_without_a_signed_report_the_sandbox_measures_peak_memory(tiny_exercise):
    unsigned = grading.interpret(sandbox_result(timed_out=True, peak_memory_bytes=7 * 2**20), None, tiny_exercise, JOB)
    assert unsigned["peak_memory_bytes"] == 7 * 2**20
    signed = {"verdict": Verdict.ACCEPTED, "peak_memory_bytes": None}
    assert (
        grading.interpret(sandbox_result(peak_memory_bytes=7 * 2**20), signed, tiny_exercise, JOB)["peak_memory_bytes"]
        is None
    )
    measured = {"verdict": Verdict.ACCEPTED, "peak_memory_bytes": 3 * 2**20}
    assert (
        grading.interpret(sandbox_result(peak_memory_bytes=7 * 2**20), measured, tiny_exercise, JOB)[
            "peak_memory_bytes"
        ]
        == 3 * 2**20
    )


def test_a_signed_report_keeps_its_own_figures_and_message(tiny_exercise):
    signed = {
        "verdict": Verdict.WRONG_ANSWER,
        "message": "Wrong value at index [3]",
        "sizes": [{"size": 10}],
        "speedup": None,
    }
    report = grading.interpret(
        sandbox_result(oom_killed=True), signed, tiny_exercise, {"mode": "check", "limits": JOB["limits"]}
    )
    assert report["verdict"] == Verdict.WRONG_ANSWER  # an OOM kill does not rewrite a wrong answer
    assert (
        report["message"] == "Wrong value at index [3]"
        and report["sizes"] == [{"size": 10}]
        and report["mode"] == "check"
    )
    assert set(report) == {*grading.REPORT_KEYS, "mode"} and report["failure"] is None


def test_signed_runtime_error_or_rejection_after_an_oom_kill_is_a_memory_limit(tiny_exercise):
    for verdict in (Verdict.RUNTIME_ERROR, Verdict.REJECTED):
        report = grading.interpret(
            sandbox_result(oom_killed=True), {"verdict": verdict, "message": "killed"}, tiny_exercise, JOB
        )
        assert report["verdict"] == Verdict.MEMORY_LIMIT
        assert report["message"] == grading.learner_message(Verdict.MEMORY_LIMIT, JOB["limits"])
    plain = grading.interpret(
        sandbox_result(), {"verdict": Verdict.RUNTIME_ERROR, "message": "boom"}, tiny_exercise, JOB
    )
    assert plain["verdict"] == Verdict.RUNTIME_ERROR and plain["message"] == "boom"


def test_the_sandbox_limit_hit_first_decides_the_verdict(tiny_exercise):
    def verdict(**fields):
        return grading.interpret(sandbox_result(exit_code=None, signal=9, **fields), None, tiny_exercise, JOB)[
            "verdict"
        ]

    assert verdict(timed_out=True, oom_killed=True, output_exceeded=True) == Verdict.TIME_LIMIT
    assert verdict(oom_killed=True, output_exceeded=True) == Verdict.MEMORY_LIMIT
    assert verdict(output_exceeded=True) == Verdict.OUTPUT_LIMIT


def test_the_failure_without_a_report_keeps_the_tail_of_stderr(tiny_exercise):
    stderr = ("x" * 3000 + "the end").encode()
    result = sandbox_result(exit_code=3, wall_s=1.23456, stderr=stderr)
    failure = grading.interpret(result, None, tiny_exercise, JOB)["failure"]
    assert failure == {"exit_code": 3, "signal": None, "wall_s": 1.235, "stderr_tail": ("x" * 3000 + "the end")[-2000:]}
    assert len(failure["stderr_tail"]) == 2000


def test_a_sandbox_that_did_not_start_is_a_platform_error_with_a_reason(tiny_exercise):
    with pytest.raises(PlatformError, match="the sandbox did not start") as caught:
        grading.interpret(sandbox_result(exit_code=1, details={"sandbox_started": False}), None, tiny_exercise, JOB)
    assert caught.value.error_id == "sandbox.setup_failed"
    report = grading.interpret(sandbox_result(exit_code=1, details={}), None, tiny_exercise, JOB)
    assert report["verdict"] == Verdict.REJECTED  # a backend that does not say is not a setup failure


def test_gpu_reports_carry_the_gpu_that_graded_them():
    gpu = grading.Exercise("tiny", GPU_SPEC, dict(TINY_FILES))

    def hardware(report):
        return grading.interpret(sandbox_result(), {"verdict": Verdict.ACCEPTED, **report}, gpu, JOB)["hardware"]

    assert hardware({"hardware": "NVIDIA H100 80GB HBM3"}) == "NVIDIA H100 80GB HBM3"
    assert hardware({"gpu_name": "NVIDIA L4"}) == "NVIDIA L4"
    assert hardware({}) == "gpu"
    assert hardware({"hardware": "G" * 200}) == "G" * 80
    cpu = grading.Exercise("tiny", dict(TINY_SPEC), dict(TINY_FILES))
    assert (
        grading.interpret(sandbox_result(), {"verdict": Verdict.ACCEPTED, "hardware": "NVIDIA L4"}, cpu, JOB)[
            "hardware"
        ]
        == "cpu"
    )


def test_learner_messages_say_how_the_process_ended():
    limits = JOB["limits"]
    assert grading.learner_message(Verdict.REJECTED, limits, sandbox_result(exit_code=None, signal=9)).endswith(
        "(exit signal 9)."
    )
    assert grading.learner_message(Verdict.REJECTED, limits, sandbox_result(exit_code=2)).endswith("(exit code 2).")
    assert grading.learner_message(Verdict.REJECTED, limits).endswith("(exit unknown).")
    assert "40 s" in grading.learner_message(Verdict.TIME_LIMIT, limits)
    assert "more than 64 K" in grading.learner_message(Verdict.OUTPUT_LIMIT, limits)  # KB or KiB
