"""A candidate takes the practice sitting from the invitation's start page, then comes back to
the real assessment, whose link still works."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from questions.models import ExerciseVersion, Kind, Question
from teams import services
from teams.models import Assessment, CandidateSession, SittingKind

from .conftest import PASSWORD

pytestmark = [pytest.mark.browser]

STARTER = "def transform(values):\n    return values\n"


@pytest.fixture
def start_path(transactional_db):
    """The start page of a fresh invitation to a published one-question assessment; the bank holds a
    practice sample."""
    manager = get_user_model().objects.create_user("practice-manager", "practice-manager@example.com", PASSWORD)
    organisation = services.create_organisation(manager, "Acme Performance")
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=30,
        created_by=manager,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=1),
    )
    real = Question.objects.create(
        slug="gib-in-bytes",
        title="Bytes in 4 GiB",
        topic="Foundations",
        difficulty="easy",
        kind=Kind.NUMERIC,
        prompt="How many bytes are in 4 GiB?",
        answer_value=4 * 2**30,
        answer_unit="bytes",
        tolerance=0.01,
    )
    services.add_question(assessment, real)
    services.publish_assessment(assessment, manager)
    Question.objects.create(
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
    coding = Question.objects.create(
        slug="add-one", title="Add one", topic="Warm-up", difficulty="easy", kind=Kind.CODING, prompt="Add one."
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
    tokens = []
    services.invite_candidate(assessment, "ada@example.com", manager, lambda token: tokens.append(token) or token)
    return f"/teams/invitation/{tokens[0]}/"


def test_practice_then_the_real_assessment(open_page, start_path):
    page = open_page()
    page.goto(start_path)
    page.get_by_role("button", name="Start the practice sitting").click()

    expect(page.locator(".countdown")).to_be_visible()
    expect(page.get_by_text("Practice sitting: Screen").first).to_be_visible()
    page.get_by_role("link", name="Next →").click()
    expect(page.get_by_text("How many bytes are in 1 KiB?")).to_be_visible()
    page.get_by_label("Your answer").fill("1024")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Submit the assessment").click()

    expect(page.get_by_role("heading", name="Practice sitting over")).to_be_visible()
    page.get_by_role("link", name="Back to the assessment's start page").click()
    expect(page.get_by_role("button", name="Start the assessment")).to_be_visible()
    expect(page.get_by_role("button", name="Start the practice sitting")).to_have_count(0)
    page.get_by_role("button", name="Start the assessment").click()
    expect(page.get_by_text("How many bytes are in 4 GiB?")).to_be_visible()

    kinds = sorted(CandidateSession.objects.values_list("kind", flat=True))
    assert kinds == [SittingKind.PRACTICE, SittingKind.REAL]
    assert not open_page.errors, open_page.errors
