"""A wrong answer or an exception names the call that failed, as Python that
rebuilds its arguments exactly, so the learner can make the same call again
(before, the page said only "a tiny input (size 1)")."""

import numpy as np
import pytest

from grader.harness import failing_call, input_rules

from .jobs import FLOAT_INPUTS, run_job

ROUND_TRIPS = [
    np.array([0.1, np.nan, -np.inf, np.inf, 1e300, -0.0, 5e-324]),
    (np.arange(6, dtype=np.float32) / 7).reshape(2, 3),
    np.array([1.5, 2.25, -0.0], dtype=np.float16),
    np.empty((0, 3)),
    np.empty((2, 0), dtype=np.int8),
    np.array([1 + 2j, complex(np.nan, 1.0), complex(0.0, -np.inf)]),
    np.array([True, False]),
    np.array(3.5),
    np.array([2**62, -1], dtype=np.int64),
    np.array([2**64 - 1], dtype=np.uint64),
    np.random.default_rng(7).standard_normal(failing_call.SHOWN_ELEMENTS).astype(np.float32),
]


def rebuilt(line):
    namespace = {"np": np}
    exec(line, namespace)  # the line a learner would paste
    return namespace["x"]


@pytest.mark.parametrize("array", ROUND_TRIPS, ids=lambda array: f"{array.dtype}{array.shape}")
def test_a_small_array_is_written_as_python_that_rebuilds_it_bit_for_bit(array):
    [line] = failing_call.describe((array,), ["x"])
    again = rebuilt(line)
    assert (again.dtype, again.shape) == (array.dtype, array.shape)
    assert again.tobytes() == array.tobytes()


def test_scalars_tuples_and_names():
    fields = failing_call.call_fields((np.int64(5), 2.5, float("nan"), (1, None), "s"), ["n", "scale"])
    assert fields == {
        "arguments": [
            "n = np.int64(5)",
            "scale = 2.5",
            "argument 3 = np.nan",
            "argument 4 = (1, None)",
            "argument 5 = 's'",
        ],
        "arguments_complete": True,
    }


def test_a_large_array_is_described_and_the_call_marked_incomplete():
    fields = failing_call.call_fields((np.zeros(failing_call.SHOWN_ELEMENTS + 1), 3), ["x", "w"])
    assert fields["arguments"] == [
        f"x = a float64 array of shape ({failing_call.SHOWN_ELEMENTS + 1},){failing_call.DESCRIBED}",
        "w = 3",
    ]
    assert fields["arguments_complete"] is False
    inside_a_tuple = failing_call.call_fields(((np.zeros((40, 2)), 1),), ["pair"])
    assert inside_a_tuple["arguments"] == [f"pair = (a float64 array of shape (40, 2){failing_call.DESCRIBED}, 1)"]
    assert inside_a_tuple["arguments_complete"] is False
    cut = failing_call.call_fields((10**2000,), ["n"])
    assert cut["arguments"][0].endswith(failing_call.CUT) and len(cut["arguments"][0]) < failing_call.MAX_CHARS + 20
    assert cut["arguments_complete"] is False


def test_both_whole_answers_are_given_only_when_both_are_small():
    shifted = failing_call.answer_fields(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 2.0]))
    assert shifted == {
        "expected_answer": "np.array([1.0, 2.0, 3.0], dtype=np.float64)",
        "got_answer": "np.array([0.0, 1.0, 2.0], dtype=np.float64)",
    }
    assert failing_call.answer_fields((np.int64(3), None), [3]) == {
        "expected_answer": "(np.int64(3), None)",
        "got_answer": "[3]",
    }
    assert failing_call.answer_fields(np.zeros(failing_call.SHOWN_ELEMENTS + 1), np.ones(3)) == {}
    assert failing_call.answer_fields(np.ones(3), np.zeros((2, failing_call.SHOWN_ELEMENTS))) == {}


def test_parameter_names_come_from_the_reference_without_running_it():
    source = (
        "raise SystemExit('never run')\ndef helper(a):\n    pass\ndef transform(x, /, w, *rest, scale=1.0):\n    pass\n"
    )
    assert input_rules.parameter_names(source, "transform") == ["x", "w"]  # the grader passes arguments by position
    assert input_rules.parameter_names(source, "missing") == []
    assert input_rules.parameter_names("def (:", "transform") == []


EDGE_INPUTS = (
    FLOAT_INPUTS
    + """

def edge_cases():
    return [(np.array([1.5, np.nan, -np.inf]),)]
"""
)

NAN_AWARE_REFERENCE = """
import numpy as np

def transform(values):
    return np.where(np.isfinite(values), values * 2.0, 0.0)
"""


def test_a_wrong_answer_names_the_call(tmp_path):
    submission = """
    import numpy as np

    def transform(values):
        return values * 2.0
    """
    run = run_job(tmp_path, submission, NAN_AWARE_REFERENCE, EDGE_INPUTS, edge_sizes=[2], sizes=[100])
    assert run.verdict == "wrong_answer", run
    failure = run.report["failure"]
    assert failure["input"] == "edge case 1"
    assert failure["arguments"] == ["values = np.array([1.5, np.nan, -np.inf], dtype=np.float64)"]
    assert failure["arguments_complete"] is True
    assert failure["expected_answer"] == "np.array([3.0, 0.0, 0.0], dtype=np.float64)"
    assert failure["got_answer"] == "np.array([3.0, np.nan, -np.inf], dtype=np.float64)"


def test_an_exception_names_the_call(tmp_path):
    submission = """
    import numpy as np

    def transform(values):
        return values / values.max()
    """
    run = run_job(tmp_path, submission, NAN_AWARE_REFERENCE, EDGE_INPUTS, edge_sizes=[0], sizes=[100])
    assert run.verdict == "runtime_error", run
    assert run.report["failure"]["arguments"] == ["values = np.empty((0,), dtype=np.float64)"]
    assert "ValueError" in run.report["failure"]["traceback"]


def test_a_reference_failing_outside_its_own_code_names_the_harness_frames():
    """An error raised in the harness's part of a reference call (2026-12-04: EBUSY
    with no frame of reference.py) names where, for whoever reads the internal error;
    a submission's traceback keeps only its own frames."""
    import errno
    import fcntl
    import os
    import types

    from grader.harness.runner import Runner

    def seal():
        read_end, write_end = os.pipe()
        os.close(read_end), os.close(write_end)
        fcntl.fcntl(read_end, fcntl.F_ADD_SEALS, 0)  # a closed descriptor: EBADF

    try:
        seal()
    except OSError as exc:
        assert exc.errno == errno.EBADF
        failure = exc
    reference = Runner.describe(types.SimpleNamespace(role="reference", module_path="/job/reference.py"), failure)
    assert (
        f'  File "{os.path.basename(__file__)}", line ' in reference["traceback"]
        and ", in seal" in reference["traceback"]
    )
    assert reference["traceback"].endswith("OSError: [Errno 9] Bad file descriptor")
    submission = Runner.describe(types.SimpleNamespace(role="submission", module_path="/job/submission.py"), failure)
    assert submission["traceback"] == "Traceback (most recent call last):\nOSError: [Errno 9] Bad file descriptor"
