"""Your data: export everything (JSON, CSV) and close the account, keeping what hiring teams hold."""

import csv
import io
import json

import pytest
from django.urls import reverse

from leaderboards.models import LeaderboardEntry, UserScore
from leaderboards.services import record_submission
from questions.models import Attempt, Kind, Question
from submissions.models import Purpose, Submission
from tests.api.conftest import GRADED_REPORT, fast_password_hashing  # noqa: F401  (fixture)
from tests.submissions.conftest import exercise_version  # noqa: F401  (fixture)

PASSWORD = "correct-horse-battery"


@pytest.fixture
def history(candidate, outsider, exercise_version):
    practice = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="def scale(x):\n    return x * 3.0 + 1.0\n",
        status="done",
        verdict="accepted",
        report=GRADED_REPORT,
        speedup=41.5,
        speedup_ci_low=39.0,
        speedup_ci_high=44.0,
        hardware="cpu",
    )
    record_submission(practice)
    sitting = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="# in an assessment\n", purpose=Purpose.ASSESSMENT
    )
    theirs = Submission.objects.create(user=outsider, exercise=exercise_version, code="# the outsider's\n")
    concept = Question.objects.create(
        slug="cache-lines", title="Cache lines", topic="Memory", difficulty="easy", kind=Kind.CONCEPT, prompt="Why?"
    )
    Attempt.objects.create(user=candidate, question=concept, answer_text="Because of spatial locality.")
    return {"practice": practice, "sitting": sitting, "theirs": theirs}


def test_json_export_has_everything_of_mine_and_nothing_else(candidate_client, history):
    response = candidate_client.get(reverse("mydata:export_json"))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert [s["id"] for s in data["submissions"]] == [history["practice"].pk]
    assert data["submissions"][0]["report"] == GRADED_REPORT and "x * 3.0" in data["submissions"][0]["code"]
    assert (
        data["answers"][0]["answer_text"] == "Because of spatial locality."
        and data["account"]["username"] == "candidate"
    )


def test_csv_exports(candidate_client, history):
    submissions = list(
        csv.DictReader(io.StringIO(candidate_client.get(reverse("mydata:submissions_csv")).content.decode()))
    )
    answers = list(csv.DictReader(io.StringIO(candidate_client.get(reverse("mydata:answers_csv")).content.decode())))
    assert [row["id"] for row in submissions] == [str(history["practice"].pk)] and submissions[0]["speedup"] == "41.5"
    assert answers[0]["question"] == "cache-lines"


def test_closing_needs_the_password(candidate_client, candidate, history):
    response = candidate_client.post(reverse("mydata:close"), {"password": "wrong"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    candidate.refresh_from_db()
    assert candidate.is_active and Submission.objects.filter(user=candidate).count() == 2


def test_closing_removes_my_data_and_keeps_the_teams(client, candidate_client, candidate, history):
    response = candidate_client.post(reverse("mydata:close"), {"password": PASSWORD})
    assert response.status_code == 302
    candidate.refresh_from_db()
    assert not candidate.is_active and candidate.username == f"deleted-{candidate.pk}" and candidate.email == ""
    assert not candidate.has_usable_password()
    assert list(Submission.objects.filter(user=candidate)) == [history["sitting"]]  # the hiring team's
    assert Submission.objects.filter(pk=history["theirs"].pk).exists()
    assert not LeaderboardEntry.objects.exists() and not UserScore.objects.filter(user=candidate).exists()
    assert not Attempt.objects.filter(user=candidate).exists()
    assert not client.login(username="candidate", password=PASSWORD)
    assert candidate_client.get(reverse("mydata:overview")).status_code == 302  # signed out


def test_the_only_owner_of_a_team_must_hand_it_over_first(candidate_client, candidate, make_user, history):
    from teams.models import Membership, Organisation, Role

    team = Organisation.objects.create(name="Acme hiring", slug="acme")
    Membership.objects.create(user=candidate, organisation=team, role=Role.OWNER)
    response = candidate_client.post(reverse("mydata:close"), {"password": PASSWORD}, follow=True)
    assert "only owner of Acme hiring" in response.content.decode()
    candidate.refresh_from_db()
    assert candidate.is_active and Submission.objects.filter(user=candidate).count() == 2
    Membership.objects.create(user=make_user("cofounder"), organisation=team, role=Role.OWNER)
    candidate_client.post(reverse("mydata:close"), {"password": PASSWORD})
    candidate.refresh_from_db()
    assert not candidate.is_active and Membership.objects.filter(organisation=team).count() == 1


def test_signup_page_says_what_stays_with_a_team(
    client, db
):  # the page is cached under the bank version, read from the database
    assert "stays with that team" in client.get(reverse("accounts:signup")).content.decode()


def test_profile_links_to_your_data(candidate_client):
    assert reverse("mydata:overview") in candidate_client.get(reverse("accounts:profile")).content.decode()
