"""Run my input on the web side: the exercise page's form, the refusals it explains at once,
the row that carries the input to the worker, and the result shown beside the reference's."""

import pytest
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from grader import grading
from submissions.models import Purpose, Submission
from submissions.services import intake, lifecycle
from submissions.states import Status, Verdict

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"
JSON = {"HTTP_ACCEPT": "application/json"}
RUN = {
    "size": 5,
    "seed": 42,
    "arguments": ["x = np.array([0.1, 0.2, 0.3, 0.4, 0.5], dtype=np.float64)"],
    "match": True,
    "mismatch": "",
    "reference": {
        "answer": {
            "kind": "array",
            "dtype": "float64",
            "shape": [5],
            "head": ["1.3"],
            "more": 4,
            "text": "float64 array, shape (5,): [1.3, 1.6, 1.9, 2.2, 2.5]",
        },
        "first_call_s": 0.004,
        "seconds": 0.0021,
    },
    "submission": {
        "answer": {
            "kind": "array",
            "dtype": "float64",
            "shape": [5],
            "head": ["1.3"],
            "more": 4,
            "text": "float64 array, shape (5,): [1.3, 1.6, 1.9, 2.2, 2.5]",
        },
        "first_call_s": 0.25,
        "seconds": 0.00004,
    },
}


def submit_url():
    return reverse("submissions:submit", args=["tiny-scale"])


def test_run_my_input_from_the_page_queues_a_quick_check_carrying_the_input(
    candidate_client, exercise_version, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sent = candidate_client.post(
            submit_url(), {"code": CODE, "purpose": "custom", "input_size": "50", "input_seed": " 7 "}, **JSON
        )
    assert sent.status_code == 201, sent.content
    check = Submission.objects.get()
    assert check.purpose == Purpose.QUICK_CHECK and check.custom_input == {"size": 50, "seed": 7, "args": None}
    assert queued == [([check.pk], "check")]


def test_literal_arguments_from_the_page(candidate_client, exercise_version, queued):
    body = {"code": CODE, "purpose": "custom", "input_args": '[[1.5, "nan", -2]]'}
    assert candidate_client.post(submit_url(), body, **JSON).status_code == 201
    assert Submission.objects.get().custom_input == {"size": None, "seed": None, "args": [[1.5, "nan", -2]]}


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"input_size": "101"}, "at most 100"),
        ({"input_size": "ten"}, "The size must be a whole number"),
        ({"input_seed": "-1"}, "The seed must be a whole number"),
        ({}, "Give a size, a seed or literal arguments"),
        ({"input_args": "[[1.0], [2.0]]"}, "takes 1 argument; your input gives 2"),
        ({"input_args": "[[1.0"}, "not valid JSON"),
        ({"input_args": "[[NaN]]"}, 'write "nan" in quotes'),
        ({"input_args": "[[1.0]]", "input_size": "3"}, "not both"),
    ],
)
def test_a_refused_input_is_explained_at_once(candidate_client, exercise_version, queued, fields, words):
    refused = candidate_client.post(submit_url(), {"code": CODE, "purpose": "custom", **fields}, **JSON)
    assert refused.status_code == 400 and words in refused.json()["error"], refused.json()
    assert not Submission.objects.exists() and queued == []


def test_without_javascript_the_refusal_keeps_what_was_typed(candidate_client, exercise_version, queued):
    page = candidate_client.post(submit_url(), {"code": CODE, "purpose": "custom", "input_size": "5000"})
    text = page.content.decode()
    assert page.status_code == 400 and "at most 100" in text
    assert 'value="5000"' in text and '<details class="custom-input" open>' in text


def test_the_input_is_for_a_quick_check_only(candidate, exercise_version, queued):
    with pytest.raises(ValidationError) as refused:
        intake.create_submission(candidate, exercise_version, CODE, purpose=Purpose.PRACTICE, custom_input={"size": 5})
    assert refused.value.code == "bad_input" and "quick check only" in refused.value.messages[0]


def test_the_worker_hands_the_input_to_the_judge(candidate, exercise_version, monkeypatch):
    seen = []

    def grade(exercise, code, mode="full", backend=None, progress=None, custom_input=None):
        seen.append((mode, custom_input))
        return {"verdict": Verdict.ACCEPTED, "message": "match", "sizes": [], "custom_input": RUN, "mode": "check"}

    monkeypatch.setattr(grading, "grade", grade)
    check = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code=CODE,
        purpose=Purpose.QUICK_CHECK,
        custom_input={"size": 5, "seed": 42, "args": None},
    )
    graded = lifecycle.run_grading(check.pk)
    assert seen == [("check", {"size": 5, "seed": 42, "args": None})]
    assert graded.verdict_label == "Same answer as the reference on your input"


def test_the_exercise_page_offers_run_my_input(candidate_client, exercise_version):
    page = candidate_client.get(exercise_version.question.get_absolute_url()).content.decode()
    assert 'name="purpose" value="custom"' in page and "Run my input" in page
    assert "at most 100" in page and "<code>x</code>" in page


def test_the_result_shows_both_answers_and_both_times(candidate, exercise_version):
    check = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code=CODE,
        purpose=Purpose.QUICK_CHECK,
        custom_input={"size": 5, "seed": 42, "args": None},
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report={"verdict": Verdict.ACCEPTED, "mode": "check", "message": "match", "custom_input": RUN},
    )
    request = RequestFactory().get("/")
    request.user = candidate
    html = render_to_string("submissions/_report.html", {"submission": check, "report": check.report}, request=request)
    assert "Size 5, seed 42" in html and "x = np.array([0.1, 0.2, 0.3, 0.4, 0.5], dtype=np.float64)" in html
    assert html.count("float64 array, shape (5,): [1.3, 1.6, 1.9, 2.2, 2.5]") == 2
    assert "40 µs" in html and "2.1 ms" in html and "250 ms" in html
    assert "The answers match." in html and "Quick check on small inputs" not in html


def test_a_differing_answer_says_where(candidate, exercise_version):
    differing = {
        **RUN,
        "match": False,
        "mismatch": "Wrong value at index [0]: expected 1.3, got 0.3.",
        "submission": {**RUN["submission"], "seconds": None},
    }
    check = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code=CODE,
        purpose=Purpose.QUICK_CHECK,
        custom_input={"size": 5, "seed": 42, "args": None},
        status=Status.DONE,
        verdict=Verdict.WRONG_ANSWER,
        report={
            "verdict": Verdict.WRONG_ANSWER,
            "mode": "check",
            "message": "Wrong answer on your input.",
            "custom_input": differing,
        },
    )
    request = RequestFactory().get("/")
    request.user = candidate
    html = render_to_string("submissions/_report.html", {"submission": check, "report": check.report}, request=request)
    assert "The answers differ." in html and "expected 1.3, got 0.3" in html
