"""Your data: export everything (JSON, CSV) and close the account, keeping what hiring teams hold."""

import csv
import io
import json

import pytest
from django.urls import reverse

from leaderboards.models import LeaderboardEntry, UserScore
from leaderboards.services import record_submission
from mydata import services as mydata
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


def test_run_my_input_checks_carry_their_input_in_both_exports(candidate_client, candidate, exercise_version):
    ran = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="def scale(x):\n    return x * 3.0 + 1.0\n",
        purpose=Purpose.QUICK_CHECK,
        custom_input={"size": 5, "seed": 42, "args": None},
        status="done",
        verdict="accepted",
        report={"custom_input": {"size": 5, "seed": 42, "match": True}},
    )
    plain = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="# a plain check\n", purpose=Purpose.QUICK_CHECK
    )
    data = json.loads(candidate_client.get(reverse("mydata:export_json")).content)
    exported = {s["id"]: s for s in data["submissions"]}
    assert exported[ran.pk]["custom_input"] == {"size": 5, "seed": 42, "args": None}
    assert exported[ran.pk]["report"]["custom_input"]["match"] is True
    assert exported[plain.pk]["custom_input"] is None
    rows = {
        row["id"]: row
        for row in csv.DictReader(io.StringIO(candidate_client.get(reverse("mydata:submissions_csv")).content.decode()))
    }
    assert json.loads(rows[str(ran.pk)]["custom_input"]) == {"size": 5, "seed": 42, "args": None}
    assert rows[str(plain.pk)]["custom_input"] == ""


def test_tokens_teams_and_sign_in_identities_are_exported_without_secrets(candidate, outsider):
    from api.tokens import create_token
    from sso.models import IdentityProvider, ProviderIdentity
    from sso.sealing import seal
    from teams.models import Membership, Organisation, Role

    token_row, token = create_token(candidate, "laptop", "read", 30)
    create_token(outsider, "theirs", "read", 30)
    team = Organisation.objects.create(name="Acme hiring", slug="acme")
    Membership.objects.create(user=candidate, organisation=team, role=Role.REVIEWER)
    provider = IdentityProvider.objects.create(
        organisation=team, issuer="https://id.acme.test", client_id="hotpath", client_secret_sealed=seal("s3cret")
    )
    ProviderIdentity.objects.create(provider=provider, subject="sub-candidate", user=candidate)

    data = mydata.export(candidate)
    [exported_token] = data["access_tokens"]
    assert (exported_token["name"], exported_token["scope"], exported_token["prefix"]) == (
        "laptop",
        "read",
        token_row.prefix,
    )
    assert exported_token["expires_at"] and exported_token["revoked_at"] is None
    [membership] = data["team_memberships"]
    assert (membership["organisation"], membership["role"]) == ("Acme hiring", "reviewer") and membership["joined_at"]
    [identity] = data["sign_in_identities"]
    assert (identity["organisation"], identity["issuer"], identity["subject"]) == (
        "Acme hiring",
        "https://id.acme.test",
        "sub-candidate",
    )
    assert data["account"]["verified_email"] == "candidate@example.com"
    text = json.dumps(data)
    assert token not in text and token_row.token_hash not in text and "s3cret" not in text
    assert mydata.export(outsider)["team_memberships"] == mydata.export(outsider)["sign_in_identities"] == []


def test_closing_unlinks_sign_in_identities_and_drops_groups(candidate, outsider):
    from django.contrib.auth.models import Group

    from sso.models import IdentityProvider, ProviderIdentity
    from sso.sealing import seal
    from teams.models import Organisation

    team = Organisation.objects.create(name="Acme hiring", slug="acme")
    provider = IdentityProvider.objects.create(
        organisation=team, issuer="https://id.acme.test", client_id="hotpath", client_secret_sealed=seal("s3cret")
    )
    ProviderIdentity.objects.create(provider=provider, subject="sub-candidate", user=candidate)
    theirs = ProviderIdentity.objects.create(provider=provider, subject="sub-outsider", user=outsider)
    candidate.groups.add(Group.objects.get_or_create(name="Authors")[0])

    mydata.close_account(candidate)
    assert list(ProviderIdentity.objects.all()) == [theirs]
    assert not candidate.groups.exists()
    assert mydata.export(candidate)["sign_in_identities"] == []


def test_the_closing_section_says_what_is_deleted_and_what_is_kept(candidate_client):
    html = candidate_client.get(reverse("mydata:overview")).content.decode()
    assert "single sign-on identities" in html and "interview rooms no one else joined" in html
    assert "without your notes, rubric marks" in html and "audit log" in html
