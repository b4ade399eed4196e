"""A candidate in a sitting codes in the practice editor (CodeMirror: Tab indents,
Ctrl+Enter submits) and their code is kept as they type, across a page change."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from questions.models import Question
from teams import services
from teams.models import Assessment

from .conftest import sign_up
from .test_learner_loop import ANSWER, CODING_SLUG, EXPECTED_CODE
from .test_practice_flow import type_into_editor

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CANDIDATE_EMAIL = "sitter@example.com"


def sitting_for(candidate):
    """A published one-question assessment (a coding exercise) with the candidate's clock started."""
    manager = get_user_model().objects.create_user("e2e-manager", "e2e-manager@example.com", "a-long-passphrase-42")
    organisation = services.create_organisation(manager, "Acme Performance")
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=30,
        created_by=manager,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=1),
    )
    services.add_question(assessment, Question.objects.get(slug=CODING_SLUG))
    services.add_question(assessment, Question.objects.get(slug="activation-tensor-fp32-size"))
    services.publish_assessment(assessment, manager)
    invitation = services.invite_candidate(assessment, candidate.email, manager, lambda token: token)
    return services.start_session(invitation, candidate)


def test_candidate_codes_in_the_editor_and_keeps_their_code(bank, open_page):
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "sitter", CANDIDATE_EMAIL)
    session = sitting_for(get_user_model().objects.get(username="sitter"))

    page.goto(f"/teams/sessions/{session.pk}/q/1/")
    expect(page.locator(".cm-editor .cm-content")).to_be_visible()
    type_into_editor(page, ANSWER)
    # Tab indents inside the editor instead of leaving it.
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("# done")
    text = page.locator("textarea#code-editor").input_value()
    assert text.startswith(EXPECTED_CODE) and re.search(r"\n {4,}# done$", text), text
    expect(page.locator(".code-draft .save-status")).to_contain_text("Code kept")

    # To the next question and back: the code is as it was typed.
    page.get_by_role("link", name="Next").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Q2")
    page.get_by_role("link", name="Previous").click()
    expect(page.locator(".cm-editor")).to_be_visible()
    assert page.locator("textarea#code-editor").input_value().replace("\r\n", "\n") == text

    assert not open_page.errors, open_page.errors
