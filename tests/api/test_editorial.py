"""GET /api/v1/exercises/<slug>/editorial/: only for a caller whose own practice was accepted."""

from django.urls import reverse

from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

from .conftest import bearer

URL = reverse("api:exercise_editorial", args=["tiny-scale"])


def test_refused_until_earned(client, read_token, exercise_version):
    response = client.get(URL, **bearer(read_token))
    assert response.status_code == 403
    assert response.json()["code"] == "editorial_not_earned"
    assert "tiny-scale" in response.json()["message"]


def test_an_assessment_acceptance_earns_nothing(client, candidate, read_token, exercise_version):
    Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="x",
        purpose=Purpose.ASSESSMENT,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    assert client.get(URL, **bearer(read_token)).status_code == 403


def test_returned_after_own_acceptance(client, read_token, graded_submission, exercise_version):
    question = exercise_version.question
    question.sample_answer = "Multiply in one NumPy expression."
    question.save()
    response = client.get(URL, **bearer(read_token))
    assert response.status_code == 200
    expected = {"sample_answer": "Multiply in one NumPy expression.", "solution_code": exercise_version.solution_code}
    assert response.json() == expected


def test_needs_a_token(client, exercise_version):
    assert client.get(URL).status_code == 401


def test_unknown_exercise_is_a_404(client, read_token):
    response = client.get(reverse("api:exercise_editorial", args=["no-such"]), **bearer(read_token))
    assert response.status_code == 404
