"""Who reaches what through the API: a token is its owner and nothing more."""

from api.models import Scope
from submissions.models import Purpose, Submission

from .conftest import bearer

SUBMISSIONS = "/api/v1/submissions/"


def submission_url(submission, tail=""):
    return f"{SUBMISSIONS}{submission.pk}/{tail}"


def test_owner_reads_their_submission_and_timings(client, submit_token, graded_submission):
    detail = client.get(submission_url(graded_submission), **bearer(submit_token))
    assert detail.status_code == 200
    body = detail.json()
    assert body["verdict"] == "accepted" and body["speedup_ci"] == [39.0, 44.0]
    assert (
        body["progress"]["state"] == "done"
        and body["progress"]["phase"] is None
        and "calls" not in body["report"]["sizes"][0]
    )
    timings = client.get(submission_url(graded_submission, "timings/"), **bearer(submit_token))
    assert timings.status_code == 200 and timings.json()["sizes"][0]["calls"]


def test_a_token_never_reaches_another_users_submissions(client, outsider, make_token, graded_submission):
    theirs = make_token(outsider, Scope.SUBMIT)
    for tail in ("", "timings/"):
        response = client.get(submission_url(graded_submission, tail), **bearer(theirs))
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    listing = client.get(SUBMISSIONS, **bearer(theirs)).json()
    assert listing["count"] == 0


def test_staff_tokens_do_not_widen_access(client, staff_author, make_token, graded_submission):
    token = make_token(staff_author, Scope.SUBMIT)
    assert client.get(submission_url(graded_submission), **bearer(token)).status_code == 404


def test_assessment_submissions_are_not_reachable(client, candidate, submit_token, exercise_version):
    sitting = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 1\n", purpose=Purpose.ASSESSMENT
    )
    assert client.get(submission_url(sitting), **bearer(submit_token)).status_code == 404
    assert client.get(SUBMISSIONS, **bearer(submit_token)).json()["count"] == 0


def test_a_read_token_cannot_submit(client, read_token, exercise_version, queued):
    response = client.post(
        SUBMISSIONS,
        {"exercise": exercise_version.question.slug, "code": "x = 1\n"},
        content_type="application/json",
        **bearer(read_token),
    )
    assert response.status_code == 403 and response.json()["code"] == "insufficient_scope"
    assert not Submission.objects.exists() and not queued


def test_a_read_token_reads(client, read_token, graded_submission):
    assert client.get(submission_url(graded_submission), **bearer(read_token)).status_code == 200


def test_session_posts_need_csrf(candidate, exercise_version, queued):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(candidate)
    response = browser.post(
        SUBMISSIONS, {"exercise": exercise_version.question.slug, "code": "x = 1\n"}, content_type="application/json"
    )
    assert response.status_code == 403 and not Submission.objects.exists()


def test_an_id_past_the_database_range_is_a_404(client, submit_token):
    for tail in ("", "timings/"):
        response = client.get(f"{SUBMISSIONS}{2**70}/{tail}", **bearer(submit_token))
        assert response.status_code == 404 and response.json()["code"] == "not_found"
