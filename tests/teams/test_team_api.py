"""The team API (/api/v1/team/): organisation tokens, scoped to their organisation, with the
reports' honest speed figures (ties where intervals overlap, not-faster answers unranked)."""

import pytest

from api import tokens
from api.models import Scope
from submissions.services import lifecycle
from submissions.states import Speed, Verdict
from teams import services
from teams.models import CandidateInvitation, OrganisationToken, Role, SignalKind, SittingSignal
from teams.services import org_tokens

pytestmark = pytest.mark.django_db

CODE = "import numpy as np\n\ndef transform(values):\n    return np.square(values)\n"


def bearer(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def owner_token(organisation, hiring_manager):
    return org_tokens.create_token(organisation, "ATS", Role.OWNER, hiring_manager)[1]


@pytest.fixture
def reviewer_token(organisation, hiring_manager):
    return org_tokens.create_token(organisation, "dashboard", Role.REVIEWER, hiring_manager)[1]


def grade(submission, speedup, ci):
    report = {
        "verdict": Verdict.ACCEPTED,
        "speedup": speedup,
        "speedup_ci": list(ci),
        "message": "Correct.",
        "peak_memory_bytes": 2**20,
        "reference_peak_memory_bytes": 2**20,
        "hardware": "cpu",
    }
    return lifecycle.finish(submission, report)


def test_a_token_sees_only_its_own_organisation(client, assessment, owner_token, other_organisation, other_org_member):
    listed = client.get("/api/v1/team/assessments/", **bearer(owner_token)).json()
    assert [row["id"] for row in listed["results"]] == [assessment.pk]
    detail = client.get(f"/api/v1/team/assessments/{assessment.pk}/", **bearer(owner_token)).json()
    assert [item["question"]["kind"] for item in detail["items"]] == ["concept", "numeric", "coding"]

    rival = org_tokens.create_token(other_organisation, "rival", Role.OWNER, other_org_member)[1]
    assert client.get("/api/v1/team/assessments/", **bearer(rival)).json()["count"] == 0
    assert client.get(f"/api/v1/team/assessments/{assessment.pk}/", **bearer(rival)).status_code == 404
    assert client.get(f"/api/v1/team/assessments/{assessment.pk}/sittings/", **bearer(rival)).status_code == 404


def test_only_a_live_organisation_token_gets_in(client, organisation, hiring_manager, owner_token):
    assert client.get("/api/v1/team/assessments/").status_code == 401
    personal_token = tokens.create_token(hiring_manager, "laptop", Scope.READ, 7)[1]
    personal = client.get("/api/v1/team/assessments/", **bearer(personal_token))
    assert (personal.status_code, personal.json()["code"]) == (401, "token_invalid")
    row = OrganisationToken.objects.get()
    assert row.token_hash != owner_token and owner_token not in row.prefix  # only the hash and a prefix are kept
    org_tokens.revoke_token(organisation, row.pk, hiring_manager)
    revoked = client.get("/api/v1/team/assessments/", **bearer(owner_token))
    assert (revoked.status_code, revoked.json()["code"]) == (401, "token_revoked")


def test_an_owner_token_invites_and_revokes_a_reviewer_token_only_reads(
    client, assessment, owner_token, reviewer_token, mailoutbox, session
):
    url = f"/api/v1/team/assessments/{assessment.pk}/invitations/"
    refused = client.post(url, {"email": "ada@example.com"}, content_type="application/json", **bearer(reviewer_token))
    assert (refused.status_code, refused.json()["code"]) == (403, "insufficient_role")

    mailoutbox.clear()
    made = client.post(url, {"email": "Ada@Example.com"}, content_type="application/json", **bearer(owner_token))
    assert made.status_code == 201 and made.json()["email"] == "ada@example.com"
    assert mailoutbox[-1].to == ["ada@example.com"]
    again = client.post(url, {"email": "ada@example.com"}, content_type="application/json", **bearer(owner_token))
    assert (again.status_code, again.json()["code"]) == (400, "refused")
    emails = {row["email"] for row in client.get(url, **bearer(reviewer_token)).json()["results"]}
    assert emails == {"ada@example.com", session.invitation.email}

    started = client.delete(f"/api/v1/team/invitations/{session.invitation.pk}/", **bearer(owner_token))
    assert started.status_code == 400 and "already started" in started.json()["message"]
    assert client.delete(f"/api/v1/team/invitations/{made.json()['id']}/", **bearer(owner_token)).status_code == 204
    assert not CandidateInvitation.objects.filter(email="ada@example.com").exists()


def test_the_sitting_report_ties_overlapping_speeds_and_leaves_not_faster_unranked(
    client, session, items, invite, make_user, reviewer_token
):
    coding = items[2]
    grade(services.submit_code(session, coding, CODE), 8.0, (7.0, 9.0))
    SittingSignal.objects.create(
        session=session, item=coding, kind=SignalKind.PASTE, at=session.started_at, data={"chars": 900}
    )
    sittings = {}
    for name, speedup, ci in [("close", 7.5, (6.8, 8.2)), ("level", 1.05, (0.9, 1.2))]:
        user = make_user(name)
        other = services.start_session(invite(user.email)[0], user)
        grade(services.submit_code(other, coding, CODE.replace("values", name)), speedup, ci)
        sittings[name] = other

    report = client.get(f"/api/v1/team/sittings/{session.pk}/", **bearer(reviewer_token)).json()
    figures = report["results"][2]["coding"]
    assert (figures["speed"], figures["speedup"]) == (Speed.FASTER, 8.0)
    assert figures["speed_rank"] == {"number": 1, "tied": True, "label": "=1"}  # 7.0..9.0 overlaps 6.8..8.2
    assert [signal["kind"] for signal in report["integrity_signals"]] == ["paste", "submission"]
    assert report["results"][0]["score"] == 0.0 and report["pending"] == 0

    level = client.get(f"/api/v1/team/sittings/{sittings['level'].pk}/", **bearer(reviewer_token)).json()
    level_figures = level["results"][2]["coding"]
    assert (level_figures["speed"], level_figures["speed_rank"]) == (Speed.NOT_FASTER, None)
    listed = client.get(f"/api/v1/team/assessments/{session.assessment.pk}/sittings/", **bearer(reviewer_token))
    listed = listed.json()
    assert [row["id"] for row in listed["results"]] == [session.pk, sittings["close"].pk, sittings["level"].pk]


def test_an_owner_makes_a_token_on_the_organisation_page_and_sees_it_once(client, organisation, hiring_manager):
    client.force_login(hiring_manager)
    page = client.post(f"/teams/org/{organisation.slug}/api-tokens/", {"name": "ATS sync", "role": Role.REVIEWER})
    token = page.context["new_token"]
    assert token.startswith("hpo_") and token in page.content.decode() and page["Cache-Control"] == "no-store"
    assert client.get("/api/v1/team/assessments/", **bearer(token)).status_code == 200
    assert token not in client.get(f"/teams/org/{organisation.slug}/").content.decode()

    row = OrganisationToken.objects.get()
    client.post(f"/teams/org/{organisation.slug}/api-tokens/{row.pk}/revoke/")
    assert client.get("/api/v1/team/assessments/", **bearer(token)).status_code == 401
