"""scripts/gpu_grade_bank.py grades through the real harness as a plain child
process where a GPU machine has no Docker engine. Its backend is tested here on
a CPU exercise; the GPU exercises themselves run only on a GPU (gpu_check.sh)."""

import importlib.util
from pathlib import Path

import pytest

from grader.grading import grade
from grader.sandbox import Limits

from .conftest import RAISES, needs_harness

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_grade_bank.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("gpu_grade_bank", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_harness
def test_the_child_process_backend_grades_like_a_sandbox(script, busy_proof_tiny_exercise):
    exercise = busy_proof_tiny_exercise
    report = grade(exercise, exercise.files["solution.py"], backend=script.ChildProcess)
    assert report["verdict"] == "accepted", report
    assert report["speedup"] > 1 and report["hardware"] == "cpu"
    assert report["sizes"][-1]["pairs"] >= 3


@needs_harness
def test_a_failed_grading_prints_its_failure(script, tiny_exercise):
    report = grade(tiny_exercise, RAISES, backend=script.ChildProcess)
    assert report["verdict"] == "runtime_error"
    details = script.failure_details(report)
    assert "traceback:" in details and "ValueError: boom" in details


@needs_harness
def test_the_child_process_backend_stops_at_its_wall_limit(script):
    with script.ChildProcess(limits=Limits(wall_time_s=1)) as child:
        child.write_file("spin.py", "while True:\n    pass\n")
        result = child.run(["python3", f"{child.JOB_MOUNT}/spin.py"])
    assert result.timed_out and result.exit_code is None


def test_the_harness_python_is_checked_for_what_the_sandbox_image_has(script, monkeypatch):
    monkeypatch.setattr(script, "SANDBOX_MODULES", ("numpy", "no_such_module_hotpath"))
    assert script.missing_sandbox_modules() == ["no_such_module_hotpath"]
