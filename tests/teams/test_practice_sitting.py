"""The practice sitting (teams.services.practice): taken from the start page before the real
assessment, on the same pages and rules, and counted nowhere the team looks."""

from datetime import timedelta

import pytest
from django.urls import reverse

from mydata import services as mydata
from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Submission
from teams import reports, services
from teams.models import (
    Assessment,
    CandidateSession,
    FinishReason,
    Role,
    SignalKind,
    SittingKind,
    SittingSignal,
    WebhookDelivery,
    WebhookEndpoint,
)
from teams.services import SessionClosed, TeamsError, org_tokens, practice

from .conftest import STARTER

pytestmark = pytest.mark.django_db


@pytest.fixture
def practice_bank(db):
    """An easy public CPU exercise and an easy public numeric question, for practice sittings."""
    coding = Question.objects.create(
        slug="add-one",
        title="Add one",
        topic="Warm-up",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Add one to each value.",
    )
    ExerciseVersion.objects.create(
        question=coding,
        number=1,
        spec={"target": "cpu", "entry_point": "transform", "sizes": [100]},
        reference_code="def transform(values):\n    return [v + 1 for v in values]\n",
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
        solution_code="def transform(values):\n    return [v + 1 for v in values]\n",
        content_hash="add-one-1",
    )
    numeric = Question.objects.create(
        slug="kib-in-bytes",
        title="Bytes in 1 KiB",
        topic="Warm-up",
        difficulty="easy",
        kind=Kind.NUMERIC,
        prompt="How many bytes are in 1 KiB?",
        answer_value=1024,
        answer_unit="bytes",
        tolerance=0.01,
    )
    return coding, numeric


@pytest.fixture
def endpoint(organisation):
    return WebhookEndpoint.objects.create(organisation=organisation, url="https://hooks.example.com/in", secret="s")


def test_a_practice_sitting_has_its_own_short_sample_and_leaves_the_invitation_unused(
    invite, candidate, assessment, practice_bank, clock
):
    invitation, _ = invite(candidate.email)
    sitting = practice.start_practice(invitation, candidate)

    assert sitting.kind == SittingKind.PRACTICE and sitting.is_practice
    assert sitting.deadline == clock.now + timedelta(minutes=practice.PRACTICE_MINUTES)
    questions = [item.question for item in sitting.assessment.items.all()]
    assert questions == list(practice_bank)
    assert not set(questions) & {item.question for item in assessment.items.all()}
    invitation.refresh_from_db()
    assert not invitation.is_used
    assert not CandidateSession.objects.filter(invitation=invitation).exists()

    real = services.start_session(invitation, candidate)  # the link still starts the real sitting
    assert real.kind == SittingKind.REAL and real.deadline == clock.now + assessment.time_limit


def test_practice_is_refused_once_taken_or_once_the_real_sitting_started(invite, candidate, make_user, practice_bank):
    invitation, _ = invite(candidate.email)
    practice.start_practice(invitation, candidate)
    with pytest.raises(TeamsError, match="already taken the practice sitting"):
        practice.start_practice(invitation, candidate)

    other = make_user("other-candidate")
    other_invitation, _ = invite(other.email)
    services.start_session(other_invitation, other)
    with pytest.raises(TeamsError, match="real assessment has started"):
        practice.start_practice(other_invitation, other)


def test_practice_is_refused_when_the_bank_has_no_sample(invite, candidate):
    invitation, _ = invite(candidate.email)
    with pytest.raises(TeamsError, match="No practice sitting is available"):
        practice.start_practice(invitation, candidate)
    assert not CandidateSession.objects.exists()


def test_the_practice_deadline_is_enforced(invite, candidate, practice_bank, clock):
    invitation, _ = invite(candidate.email)
    sitting = practice.start_practice(invitation, candidate)
    coding, numeric = sitting.assessment.items.order_by("position")
    services.save_answer(sitting, numeric, numeric_input="1024")

    clock.advance(minutes=practice.PRACTICE_MINUTES, seconds=1)
    with pytest.raises(SessionClosed, match="Time is up"):
        services.save_answer(sitting, numeric, numeric_input="1000")
    with pytest.raises(SessionClosed):
        services.submit_code(sitting, coding, "def transform(v):\n    return v\n")
    sitting.refresh_from_db()
    assert sitting.finish_reason == FinishReason.EXPIRED


def test_a_practice_sitting_raises_no_webhook_and_mails_no_one(
    invite, candidate, practice_bank, endpoint, mailoutbox, django_capture_on_commit_callbacks
):
    invitation, _ = invite(candidate.email)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sitting = practice.start_practice(invitation, candidate)
        services.finish_session(sitting, FinishReason.SUBMITTED)
    assert not WebhookDelivery.objects.exists() and not mailoutbox

    with django_capture_on_commit_callbacks(execute=True):
        real = services.start_session(invitation, candidate)
        services.finish_session(real, FinishReason.SUBMITTED)
    assert WebhookDelivery.objects.count() == 3 and len(mailoutbox) == 1  # the real one still counts


def test_reports_scores_and_copy_checks_leave_practice_out(
    invite, candidate, organisation, hiring_manager, assessment, practice_bank, clock
):
    invitation, _ = invite(candidate.email)
    sitting = practice.start_practice(invitation, candidate)
    coding_item = sitting.assessment.items.get(question=practice_bank[0])
    services.submit_code(sitting, coding_item, "def transform(v):\n    return [x + 1 for x in v]\n")
    real = services.start_session(invitation, candidate)

    assert [report.session for report in reports.assessment_reports(assessment)] == [real]
    # Another assessment of the team that asks the practice's exercise: the practice answer is no copy source.
    other = Assessment.objects.create(
        organisation=organisation,
        title="Warm-up screen",
        time_limit_minutes=30,
        opens_at=clock.now - timedelta(hours=1),
        closes_at=clock.now + timedelta(days=1),
        created_by=hiring_manager,
    )
    services.add_question(other, practice_bank[0])
    sources = reports._similarity_sources(other.items.get(), other)
    assert [source.kind for source in sources if source.kind == "sitting"] == []
    assert Submission.objects.count() == 1  # the practice answer exists, and is compared with nothing


def test_team_pages_and_the_api_never_show_a_practice_sitting(
    client, invite, candidate, hiring_manager, organisation, assessment, practice_bank
):
    invitation, _ = invite(candidate.email)
    sitting = practice.start_practice(invitation, candidate)
    client.force_login(hiring_manager)

    assert client.get(reverse("teams:candidate_report", args=[organisation.slug, sitting.pk])).status_code == 404
    organisation_page = client.get(reverse("teams:organisation", args=[organisation.slug])).content.decode()
    assert "Practice sitting:" not in organisation_page
    assert list(organisation.assessments.all()) == [assessment]
    assert client.get(reverse("teams:assessment", args=[organisation.slug, sitting.assessment.pk])).status_code == 404

    real = services.start_session(invitation, candidate)
    report_page = client.get(reverse("teams:candidate_report", args=[organisation.slug, real.pk])).content.decode()
    assert "Took the practice sitting (never scored)" in report_page

    token = org_tokens.create_token(organisation, "ATS", Role.OWNER, hiring_manager)[1]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    listed = client.get(reverse("api:team_assessments"), **bearer).json()
    assert [row["id"] for row in listed["results"]] == [assessment.pk]
    sittings = client.get(reverse("api:team_sittings", args=[assessment.pk]), **bearer).json()
    assert [row["id"] for row in sittings["results"]] == [real.pk]
    assert client.get(reverse("api:team_sitting", args=[sitting.pk]), **bearer).status_code == 404
    assert client.get(reverse("api:team_sittings", args=[sitting.assessment.pk]), **bearer).status_code == 404
    assert client.delete(reverse("api:team_invitation", args=[sitting.invitation_id]), **bearer).status_code == 404


def test_the_start_page_offers_practice_then_the_real_assessment(client, invite, candidate, assessment, practice_bank):
    invitation, token = invite(candidate.email)
    client.force_login(candidate)
    start = reverse("teams:candidate_start", args=[token])
    assert "Start the practice sitting" in client.get(start).content.decode()

    started = client.post(reverse("teams:practice_start", args=[token]))
    sitting = CandidateSession.objects.get(kind=SittingKind.PRACTICE)
    assert started["Location"] == reverse("teams:take", args=[sitting.pk])
    page = client.get(reverse("teams:take_question", args=[sitting.pk, 1])).content.decode()
    assert "Practice sitting: " in page and "Run on small inputs" in page

    client.post(reverse("teams:finish", args=[sitting.pk]))
    done = client.get(reverse("teams:done", args=[sitting.pk])).content.decode()
    assert "Practice sitting over" in done and f'href="{start}"' in done

    page = client.get(start).content.decode()
    assert "Start the assessment" in page and "Start the practice sitting" not in page  # taken once
    real = client.post(start)
    session = CandidateSession.objects.get(kind=SittingKind.REAL)
    assert real["Location"] == reverse("teams:take", args=[session.pk])

    refused = client.post(reverse("teams:practice_start", args=[token]), follow=True)
    assert CandidateSession.objects.filter(kind=SittingKind.PRACTICE).count() == 1
    assert refused.redirect_chain[-1][0] == reverse("teams:take_question", args=[session.pk, 1])
    assert "the practice sitting is no longer available" in refused.content.decode()


def test_closing_the_account_empties_its_practice_sitting_and_keeps_the_real_one(
    client, invite, candidate, hiring_manager, organisation, practice_bank
):
    invitation, _ = invite(candidate.email)
    sitting = practice.start_practice(invitation, candidate)
    coding, numeric = sitting.assessment.items.order_by("position")
    services.save_answer(sitting, numeric, numeric_input="1024")
    practised = services.submit_code(sitting, coding, "def transform(v):\n    return [x + 1 for x in v]\n")
    SittingSignal.objects.create(
        session=sitting, item=coding, kind=SignalKind.SNAPSHOT, at=sitting.started_at, data={"code": "# typed"}
    )
    real = services.start_session(invitation, candidate)
    real_coding = real.assessment.items.get(question__kind=Kind.CODING)
    services.save_answer(real, real_coding, text="def transform(v):\n    return v\n")
    submitted = services.submit_code(real, real_coding, "def transform(v):\n    return v\n")

    mydata.close_account(candidate)
    assert CandidateSession.objects.filter(pk=sitting.pk).exists()  # the team's report says it was taken
    assert not sitting.answers.exists() and not sitting.signals.exists() and not sitting.session_submissions.exists()
    assert not Submission.objects.filter(pk=practised.pk).exists()
    assert real.answers.count() == 1 and list(real.session_submissions.values_list("submission", flat=True)) == [
        submitted.pk
    ]
    client.force_login(hiring_manager)
    report_page = client.get(reverse("teams:candidate_report", args=[organisation.slug, real.pk])).content.decode()
    assert "Took the practice sitting (never scored)" in report_page
