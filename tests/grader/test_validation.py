"""grader.validation: an exercise's model solution must be accepted against its reference."""

from pathlib import Path

import pytest

from grader.validation import validate_exercise

BANK = Path(__file__).resolve().parents[2] / "questions" / "bank"


def exercise_files(folder):
    return {path.name: path.read_text() for path in folder.glob("*.py")}


def test_solution_that_disagrees_with_reference_is_refused():
    folder = BANK / "algorithmic-complexity" / "python-loop-to-numpy"
    files = exercise_files(folder)
    files["solution.py"] = "import numpy as np\n\ndef transform(x):\n    return (x * 2 + 2) ** 2\n"
    spec = {
        "target": "cpu",
        "entry_point": "transform",
        "sizes": [2000],
        "edge_sizes": [0, 1],
        "repeats": 3,
        "tolerance": {"rtol": 1e-9, "atol": 0.0},
        "allowed_imports": ["numpy"],
    }
    result = validate_exercise(spec, files, slug="python-loop-to-numpy")
    assert not result.ok
    assert "wrong_answer" in result.message


def test_gpu_exercise_is_not_claimed_validated_without_a_gpu():
    try:
        import cupy  # noqa: F401

        pytest.skip("this machine has CuPy; the deferral only applies without a GPU")
    except ImportError:
        pass
    folder = BANK / "algorithmic-complexity" / "fused-axpy-relu"
    result = validate_exercise({"target": "gpu", "entry_point": "axpy_relu", "sizes": [1024]}, exercise_files(folder))
    assert result.ok
    assert result.message.startswith("not validated on this machine")
    assert "skipped" in result.report
