"""An author reads why validation failed as text: the file at fault, then the details
with their real line breaks, never a Python dict."""

from grader.validation import refusal_message
from submissions.states import Verdict

TRACEBACK = "Traceback (most recent call last):\n  File \"reference.py\", line 3, in transform\nNameError: name 'np' is not defined\n"


def test_a_broken_reference_is_blamed_on_the_reference():
    report = {
        "verdict": Verdict.INTERNAL_ERROR,
        "message": "The reference implementation failed on edge size 0 (error).",
        "failure": {"reference": TRACEBACK},
    }
    message = refusal_message(report)
    assert message.startswith("reference.py failed, so nothing could be compared.")
    assert 'File "reference.py", line 3, in transform\nNameError' in message
    assert "solution.py was graded" not in message and "{" not in message


def test_a_reference_that_died_without_a_traceback_shows_what_it_printed():
    report = {
        "verdict": Verdict.INTERNAL_ERROR,
        "message": "The reference implementation failed while loading the module (died).",
        "failure": {
            "reference": "the process exited with code 1 before returning",
            "reference_output": "OSError: libcuda.so.1: cannot open shared object file\n",
        },
    }
    assert refusal_message(report).endswith(
        "(died).\nthe process exited with code 1 before returning\nreference.py printed:\nOSError: libcuda.so.1: cannot open shared object file"
    )
    report["failure"]["reference_output"] = ""
    assert "printed" not in refusal_message(report)


def test_a_refused_solution_lists_its_details_as_lines():
    report = {
        "verdict": Verdict.WRONG_ANSWER,
        "message": "Wrong answer on size 1,000.",
        "failure": {"index": [3], "expected": "9.0", "got": "3.0", "tolerance": {"rtol": 1e-9}},
    }
    assert (
        refusal_message(report)
        == "solution.py was graded wrong_answer: Wrong answer on size 1,000.\nexpected 9.0, got 3.0 at position [3]"
    )
    syntax = {
        "verdict": Verdict.SYNTAX_ERROR,
        "message": "Syntax error at line 2: '(' was never closed.",
        "failure": {"line": 2},
    }
    assert refusal_message(syntax).endswith("\nsolution.py, line 2")
    edge = {
        "verdict": Verdict.WRONG_ANSWER,
        "message": "Wrong answer on edge case 1.",
        "failure": {
            "index": [1],
            "expected": "0.0",
            "got": "nan",
            "arguments": ["x = np.array([1.5, np.nan], dtype=np.float64)", "w = 2"],
        },
    }
    assert refusal_message(edge).endswith("\ncalled with:\nx = np.array([1.5, np.nan], dtype=np.float64)\nw = 2")
