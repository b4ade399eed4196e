"""Submitting through the API: the web form's validation, queue cap and rate limit."""

import pytest

from submissions.models import Purpose, Submission
from submissions.same_code import fingerprint

from .conftest import TINY_FILES, bearer

SUBMISSIONS = "/api/v1/submissions/"


def post(client, token, **body):
    return client.post(SUBMISSIONS, body, content_type="application/json", **bearer(token))


def test_submit_queues_a_practice_submission(
    client, candidate, submit_token, exercise_version, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, submit_token, exercise="tiny-scale", code=TINY_FILES["solution.py"])
    assert response.status_code == 201
    body = response.json()
    submission = Submission.objects.get()
    assert body["id"] == submission.pk and submission.user == candidate and submission.purpose == Purpose.PRACTICE
    progress = body["progress"]
    assert body["status"] == "queued" and progress["state"] == "queued" and progress["phase"] == "queued"
    assert progress["queue_position"] == 0 and progress["label"].startswith("Queued") and progress["started_at"] is None
    assert queued == [([submission.pk], "cpu")]


def test_quick_check(client, submit_token, exercise_version, queued):
    response = post(client, submit_token, exercise="tiny-scale", code=TINY_FILES["solution.py"], purpose="check")
    assert response.status_code == 201 and Submission.objects.get().purpose == Purpose.QUICK_CHECK


@pytest.mark.parametrize(
    "code, error",
    [("", "empty"), ("x = '\ud800'\n", "not_utf8"), ("x = 1\x00\n", "nul"), ("#" * 70_000, "too_large")],
)
def test_bad_code_gets_the_services_code(client, submit_token, exercise_version, queued, code, error):
    response = post(client, submit_token, exercise="tiny-scale", code=code)
    assert response.status_code == 400 and response.json()["code"] == error
    assert not Submission.objects.exists()


def test_unknown_exercise_is_404(client, submit_token, queued):
    response = post(client, submit_token, exercise="no-such-thing", code="x = 1\n")
    assert response.status_code == 404 and "no-such-thing" in response.json()["message"]


def test_purpose_must_be_practice_or_check(client, submit_token, exercise_version, queued):
    response = post(client, submit_token, exercise="tiny-scale", code="x = 1\n", purpose="assessment")
    assert (
        response.status_code == 400 and response.json()["code"] == "invalid" and "purpose" in response.json()["fields"]
    )


def test_queue_cap(client, submit_token, exercise_version, queued, settings):
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 1
    assert post(client, submit_token, exercise="tiny-scale", code="x = 1\n").status_code == 201
    response = post(client, submit_token, exercise="tiny-scale", code="x = 2\n")
    assert response.status_code == 429 and response.json()["code"] == "too_many_queued"


def test_rate_limit_is_shared_with_the_web_form(client, candidate, submit_token, exercise_version, queued, settings):
    settings.SUBMISSION_RATE = "2/m"
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 10
    client.force_login(candidate)
    assert client.post(f"/submissions/exercise/tiny-scale/submit/", {"code": "x = 1\n"}).status_code == 302
    client.logout()
    assert post(client, submit_token, exercise="tiny-scale", code="x = 2\n").status_code == 201
    response = post(client, submit_token, exercise="tiny-scale", code="x = 3\n")
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    assert Submission.objects.count() == 2


def test_malformed_json_is_a_400_with_a_code(client, submit_token):
    response = client.post(SUBMISSIONS, "{not json", content_type="application/json", **bearer(submit_token))
    assert response.status_code == 400 and response.json()["code"] == "parse_error"


def test_unknown_endpoint_is_json(client):
    response = client.get("/api/v1/nothing-here/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_my_submissions_filter(client, submit_token, graded_submission, exercise_version, queued):
    post(client, submit_token, exercise="tiny-scale", code="x = 1\n", purpose="check")
    every = client.get(SUBMISSIONS, **bearer(submit_token)).json()
    checks = client.get(SUBMISSIONS + "?purpose=check", **bearer(submit_token)).json()
    accepted = client.get(SUBMISSIONS + "?verdict=accepted&exercise=tiny-scale", **bearer(submit_token)).json()
    assert (
        every["count"] == 2
        and checks["count"] == 1
        and [row["id"] for row in accepted["results"]] == [graded_submission.pk]
    )
    bad = client.get(SUBMISSIONS + "?verdict=great", **bearer(submit_token))
    assert bad.status_code == 400 and "verdict" in bad.json()["fields"]


def test_a_submission_says_how_it_compares_with_the_previous_answer(client, read_token, graded_submission):
    """The submission page's "Against your previous answer" (submissions/comparison.py), as data."""
    first = client.get(f"{SUBMISSIONS}{graded_submission.pk}/", **bearer(read_token)).json()
    assert first["against_previous"] is None
    faster = Submission.objects.get(pk=graded_submission.pk)
    faster.pk = None
    faster.speedup, faster.speedup_ci_low, faster.speedup_ci_high = 83.0, 80.0, 86.0
    faster.save()
    body = client.get(f"{SUBMISSIONS}{faster.pk}/", **bearer(read_token)).json()
    # The same code graded again: the gap is the machine's, whatever the intervals say.
    assert body["against_previous"] == {"previous": graded_submission.pk, "ratio": 2.0, "outcome": "same_code"}
    changed = (
        faster.code + "\nSCALE = 2\n"
    )  # now another program (a row's code never changes; its fingerprint goes with it)
    Submission.objects.filter(pk=faster.pk).update(code=changed, program=fingerprint(changed))
    body = client.get(f"{SUBMISSIONS}{faster.pk}/", **bearer(read_token)).json()
    assert body["against_previous"] == {"previous": graded_submission.pk, "ratio": 2.0, "outcome": "faster"}


def test_an_accepted_answer_is_graded_again_through_the_api(
    client, submit_token, read_token, outsider, graded_submission, queued, django_capture_on_commit_callbacks
):
    url = f"{SUBMISSIONS}{graded_submission.pk}/grade-again/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, **bearer(submit_token))

    assert response.status_code == 201
    again = Submission.objects.get(pk=response.json()["id"])
    assert (again.code, again.program, again.purpose) == (
        graded_submission.code,
        graded_submission.program,
        Purpose.PRACTICE,
    )
    assert [args for args, _ in queued] == [[again.pk]]

    assert client.post(url, **bearer(read_token)).json()["code"] == "insufficient_scope"
    refused = client.post(f"{SUBMISSIONS}{again.pk}/grade-again/", **bearer(submit_token))  # still queued, no figures
    assert refused.status_code == 400 and refused.json()["code"] == "not_gradable_again"
    client.force_login(outsider)
    assert client.post(url).status_code == 404
    assert Submission.objects.count() == 2
