"""What a learner reads when a submission fails: plain words, the line, the input."""

import pytest
from django.urls import reverse

from submissions.models import Submission
from submissions.states import Status, Verdict
from submissions.templatetags.submission_tags import plain_input_names

SYNTAX = "import numpy as np\n\ndef scale(x):\n    return (x * 3.0\n\nprint(1)\n"


@pytest.fixture
def graded(candidate, exercise_version):
    def make(code, verdict, message, failure):
        report = {
            "verdict": verdict,
            "message": message,
            "failure": failure,
            "sizes": [],
            "speedup": None,
            "peak_memory_bytes": None,
            "hint": "",
            "mode": "full",
            "hardware": "cpu",
        }
        return Submission.objects.create(
            user=candidate,
            exercise=exercise_version,
            code=code,
            status=Status.DONE,
            verdict=verdict,
            message=message,
            report=report,
        )

    return make


def page(client, submission):
    return client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()


def what_went_wrong(html):
    start = html.index('id="what-went-wrong-title"')
    return html[start : html.index("</section>", start)]


def test_a_syntax_error_is_labelled_as_such_and_shows_the_line(candidate_client, graded):
    submission = graded(SYNTAX, Verdict.SYNTAX_ERROR, "Syntax error at line 4: '(' was never closed.", {"line": 4})
    html = page(candidate_client, submission)
    assert '<p class="verdict verdict-syntax_error">Syntax error</p>' in html
    section = what_went_wrong(html)
    assert "Syntax error at line 4: &#x27;(&#x27; was never closed." in section
    assert "Line 4 of your code:" in section
    assert '<span class="source-line-bad">   4 &gt;     return (x * 3.0</span>' in section
    assert "   3 |" in section and "   6 |" in section  # two lines either side


def test_what_went_wrong_is_never_empty(candidate_client, graded):
    for verdict, message, failure in (
        (Verdict.TIME_LIMIT, "Grading ran past the time limit of 20 s, so it was stopped.", None),
        (Verdict.RUNTIME_ERROR, "Your code raised an exception.", {"line": 2}),
        (Verdict.INTERNAL_ERROR, "", {"internal": "KeyError"}),
    ):
        section = what_went_wrong(page(candidate_client, graded("x = 1\n", verdict, message, failure)))
        text = section.split("</h3>", 1)[1]
        assert "<p>" in text and text.split("<p>", 1)[1].split("</p>")[0].strip(), (verdict, section)


def test_a_wrong_answer_names_the_input_shape_position_and_values(candidate_client, graded):
    failure = {
        "input": "edge size 1",
        "shape": [1],
        "index": [0],
        "expected": "4.0",
        "got": "3.0",
        "tolerance": {"rtol": 1e-12, "atol": 0.0},
        "mismatches": 1,
        "total": 1,
    }
    message = "Wrong answer on edge size 1. Wrong value at index [0]: expected 4.0, got 3.0; 1 of 1 values differ."
    section = what_went_wrong(page(candidate_client, graded("x = 1\n", Verdict.WRONG_ANSWER, message, failure)))
    assert "differs from the reference's on a tiny input (size 1)." in section
    assert "<dt>Shape of the result</dt><dd>1</dd>" in section
    assert "<dt>First differing position</dt><dd><code>[0]</code></dd>" in section
    assert (
        "<dt>Expected</dt><dd><code>4.0</code></dd>" in section and "<dt>Got</dt><dd><code>3.0</code></dd>" in section
    )
    assert "<dt>Values that differ</dt><dd>1 of 1</dd>" in section
    assert "edge size" not in section and "Input [0]" not in section


def test_harness_input_names_in_plain_words():
    assert plain_input_names("Wrong answer on edge size 0.") == "Wrong answer on a tiny input (size 0)."
    assert (
        plain_input_names("raised IndexError on edge case 2") == "raised IndexError on special input 2 of this exercise"
    )
    assert plain_input_names("Wrong answer on size 8,000.") == "Wrong answer on the input of size 8,000."


def test_a_quick_check_lists_sizes_and_correctness_only(candidate_client, graded):
    submission = graded("x = 1\n", Verdict.ACCEPTED, "Correct on 1 check size and 2 edge cases.", None)
    report = {**submission.report, "mode": "check", "sizes": [{"size": 100, "correct": True, "time_s": None}]}
    Submission.objects.filter(pk=submission.pk).update(report=report)
    html = page(candidate_client, submission)
    table = html[html.index('<table class="check-sizes">') : html.index("</table>")]
    assert table.count("<th ") == 2 and "<td>yes</td>" in table and "–" not in table
    assert "Your time" not in html


def test_the_failing_call_is_shown_as_python_to_paste(candidate_client, graded, exercise_version):
    """grader/harness/failing_call.py writes the call; the page shows it, and says
    when an array was too large to list."""
    failure = {
        "input": "edge case 1",
        "shape": [3],
        "index": [1],
        "expected": "0.0",
        "got": "nan",
        "tolerance": {"rtol": 1e-12, "atol": 0.0},
        "mismatches": 2,
        "total": 3,
        "arguments": ["x = np.array([1.5, np.nan, -np.inf], dtype=np.float64)", "w = 2"],
        "arguments_complete": True,
        "expected_answer": "np.array([1.5, 0.0, 0.0], dtype=np.float64)",
        "got_answer": "np.array([1.5, np.nan, -np.inf], dtype=np.float64)",
    }
    section = what_went_wrong(page(candidate_client, graded("x = 1\n", Verdict.WRONG_ANSWER, "Wrong answer.", failure)))
    assert (
        '<dt>The call</dt><dd>\n<pre class="failing-call"><code>x = np.array([1.5, np.nan, -np.inf], dtype=np.float64)\n'
        "w = 2</code></pre>"
    ) in section
    assert "Call your function with these arguments" in section and "too large" not in section
    assert "cupy.asarray" not in section
    assert (
        '<dt>Whole answers</dt><dd>\n<pre class="failing-call"><code>expected: np.array([1.5, 0.0, 0.0], dtype=np.float64)\n'
        "got:      np.array([1.5, np.nan, -np.inf], dtype=np.float64)</code></pre>"
    ) in section

    crashed = {
        "traceback": "ValueError: zero-size array",
        "arguments": ["x = a float64 array of shape (100000,) (too large to list)"],
        "arguments_complete": False,
    }
    section = what_went_wrong(
        page(candidate_client, graded("x = 1\n", Verdict.RUNTIME_ERROR, "Your code raised ValueError.", crashed))
    )
    assert "<code>x = a float64 array of shape (100000,) (too large to list)</code>" in section
    assert "Arrays this large are described, not listed" in section

    exercise_version.spec = {**exercise_version.spec, "target": "gpu"}
    exercise_version.save()
    on_gpu = what_went_wrong(page(candidate_client, graded("x = 1\n", Verdict.WRONG_ANSWER, "Wrong answer.", failure)))
    assert "the grader passes each array through <code>cupy.asarray</code>" in on_gpu

    without = what_went_wrong(
        page(
            candidate_client,
            graded("x = 1\n", Verdict.RUNTIME_ERROR, "Your code raised ValueError.", {"traceback": "E"}),
        )
    )
    assert "failing-call" not in without

    returned_a_list = {
        "arguments": ["x = np.empty((0,), dtype=np.float64)"],
        "arguments_complete": True,
        "expected_answer": "np.empty((0,), dtype=np.float64)",
        "got_answer": "[]",
    }
    section = what_went_wrong(
        page(
            candidate_client, graded("x = 1\n", Verdict.WRONG_ANSWER, "Your function returned a list.", returned_a_list)
        )
    )
    assert "Your function returned a list." in section
    assert "expected: np.empty((0,), dtype=np.float64)\ngot:      []</code>" in section
