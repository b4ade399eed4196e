"""Run my input through the API: the input on a quick check, refusals with the service's code,
the result with both answers and times, and the schema that documents them."""

import io

import pytest
from django.core.management import call_command

from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict
from tests.submissions.test_custom_input import RUN

from .conftest import TINY_FILES, bearer

SUBMISSIONS = "/api/v1/submissions/"


def post(client, token, **body):
    return client.post(SUBMISSIONS, body, content_type="application/json", **bearer(token))


def test_a_quick_check_on_a_size_and_seed(client, submit_token, exercise_version, queued):
    response = post(
        client,
        submit_token,
        exercise="tiny-scale",
        code=TINY_FILES["solution.py"],
        purpose="check",
        custom_input={"size": 50, "seed": 3},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    check = Submission.objects.get()
    assert check.purpose == Purpose.QUICK_CHECK and check.custom_input == {"size": 50, "seed": 3, "args": None}
    assert body["custom_input"] == {"size": 50, "seed": 3, "args": None} and body["custom_input_result"] is None


def test_literal_arguments_and_nulls_left_out(client, submit_token, exercise_version, queued):
    response = post(
        client,
        submit_token,
        exercise="tiny-scale",
        code=TINY_FILES["solution.py"],
        purpose="check",
        custom_input={"size": None, "args": [[1.5, "-inf", 2]]},
    )
    assert response.status_code == 201, response.json()
    assert Submission.objects.get().custom_input["args"] == [[1.5, "-inf", 2]]


@pytest.mark.parametrize(
    "purpose, custom_input, words",
    [
        ("check", {"size": 101}, "at most 100"),
        ("check", {"args": [[1.0], 2]}, "takes 1 argument; your input gives 2"),
        ("check", {}, "Give a size, a seed or literal arguments"),
        ("check", {"size": 3, "args": [[1.0]]}, "not both"),
        ("practice", {"size": 3}, "quick check only"),
    ],
)
def test_a_refused_input_is_a_400_with_the_services_code(
    client, submit_token, exercise_version, queued, purpose, custom_input, words
):
    response = post(
        client, submit_token, exercise="tiny-scale", code="x = 1\n", purpose=purpose, custom_input=custom_input
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_input", response.json()
    assert words in response.json()["message"] and not Submission.objects.exists()


def test_a_seed_out_of_range_is_refused_by_the_serializer(client, submit_token, exercise_version, queued):
    response = post(
        client, submit_token, exercise="tiny-scale", code="x = 1\n", purpose="check", custom_input={"seed": 2**32}
    )
    assert response.status_code == 400 and "custom_input" in response.json()["fields"]


def test_the_result_has_both_answers_and_times(client, candidate, submit_token, exercise_version):
    check = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="x = 1\n",
        purpose=Purpose.QUICK_CHECK,
        custom_input={"size": 5, "seed": 42, "args": None},
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report={"verdict": Verdict.ACCEPTED, "mode": "check", "message": "match", "sizes": [], "custom_input": RUN},
    )
    body = client.get(f"{SUBMISSIONS}{check.pk}/", **bearer(submit_token)).json()
    result = body["custom_input_result"]
    assert result["match"] is True and result["seed"] == 42
    assert result["submission"]["seconds"] == 0.00004 and result["reference"]["first_call_s"] == 0.004
    assert result["reference"]["answer"]["shape"] == [5] and result["submission"]["answer"]["dtype"] == "float64"
    assert body["verdict_label"] == "Same answer as the reference on your input"


def test_the_schema_documents_the_input_and_the_result(db, tmp_path):
    target = tmp_path / "schema.yaml"
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(target), stdout=io.StringIO(), stderr=io.StringIO()
    )
    text = target.read_text()
    for name in ("CustomInputRequest:", "CustomRun:", "CustomRunSide:", "AnswerPreview:", "custom_input_result:"):
        assert name in text
