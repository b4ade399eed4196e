"""A hiring team's assessment, in two browsers: the manager builds and sends it,
the candidate takes it against the clock (their code graded by a real worker),
and the manager reads the report."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from .conftest import GRADING_TIMEOUT_MS, sign_up, worker_log_tail
from .test_practice_flow import EXPECTED_CODE, NUMPY_ANSWER, type_into_editor

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NUMERIC_TITLE = "Size of a transformer activation tensor in fp32"
CODING_TITLE = "Replace a Python loop with one NumPy expression"
CANDIDATE_EMAIL = "candidate@example.com"
INVITATION_LINK = re.compile(r"https?://\S+/teams/invitation/\S+/")


def local_minute(moment):
    """The value a datetime-local input takes (the site's time zone is UTC)."""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def add_question(page, title):
    select = page.get_by_label("Question from the bank")
    value = select.locator("option", has_text=title).get_attribute("value")
    select.select_option(value)
    page.get_by_role("button", name="Add question").click()
    expect(page.locator("table").first).to_contain_text(title)


def test_manager_assesses_a_candidate(bank, grading_worker, open_page, screenshot):
    manager = open_page()

    # The manager signs up and sets up a team and a timed assessment from bank questions.
    manager.goto("/accounts/signup/")
    sign_up(manager, "manager", "manager@example.com")
    manager.get_by_role("navigation", name="Main").get_by_role("link", name="Teams").click()
    manager.get_by_role("link", name="Create an organisation").click()
    manager.get_by_label("Organisation name").fill("Acme Performance")
    manager.get_by_role("button", name="Create").click()
    expect(manager.get_by_role("heading", level=1)).to_have_text("Acme Performance")

    manager.get_by_role("link", name="New assessment").click()
    now = timezone.now()
    manager.get_by_label("Title").fill("Performance engineer screen")
    manager.get_by_label("Instructions").fill("Two questions. Use **NumPy** for the coding one.")
    manager.get_by_label("Time limit (minutes)").fill("30")
    manager.get_by_label("Opens at").fill(local_minute(now - timedelta(hours=1)))
    manager.get_by_label("Closes at").fill(local_minute(now + timedelta(days=2)))
    manager.get_by_role("button", name="Save").click()
    expect(manager.get_by_role("heading", level=1)).to_have_text("Performance engineer screen")

    add_question(manager, NUMERIC_TITLE)
    add_question(manager, CODING_TITLE)
    manager.once("dialog", lambda dialog: dialog.accept())  # "Publish this assessment? ..."
    manager.get_by_role("button", name="Publish").click()
    expect(manager.get_by_text("Published.", exact=False).first).to_be_visible()

    manager.get_by_label("Candidate e-mail addresses").fill(CANDIDATE_EMAIL)
    manager.get_by_role("button", name="Send invitations").click()
    expect(manager.get_by_text(f"Invitations sent to {CANDIDATE_EMAIL}.")).to_be_visible()

    # The invitation e-mail (the live server runs in this process: locmem outbox).
    invitation = next(message for message in mail.outbox if CANDIDATE_EMAIL in message.to)
    link = INVITATION_LINK.search(invitation.body).group(0)

    # The candidate, in a browser of their own, starts the clock.
    candidate = open_page()
    candidate.goto(link)
    expect(candidate.get_by_text("30 minutes")).to_be_visible()
    candidate.get_by_role("button", name="Start the assessment").click()
    countdown = candidate.locator(".countdown-value")
    expect(countdown).to_have_text(re.compile(r"^(29|30):\d\d$"))
    first_reading = countdown.inner_text()
    expect(countdown).not_to_have_text(first_reading, timeout=5_000)  # it counts down

    # Q1, numeric: the answer saves itself.
    expect(candidate.get_by_role("heading", level=1)).to_contain_text(NUMERIC_TITLE)
    candidate.get_by_label("Your answer").fill("1 GiB")
    expect(candidate.locator(".save-status")).to_contain_text("Saved")
    candidate.get_by_role("link", name="Next").click()

    # Q2, coding: submitted and graded while the candidate waits on the page.
    expect(candidate.get_by_role("heading", level=1)).to_contain_text(CODING_TITLE)
    # The practice editor: CodeMirror, where Tab indents and Ctrl+Enter submits.
    expect(candidate.locator(".cm-editor .cm-content")).to_be_visible()
    type_into_editor(candidate, NUMPY_ANSWER)
    assert candidate.locator("textarea#code-editor").input_value().rstrip() == EXPECTED_CODE
    candidate.keyboard.press("Control+Enter")
    verdict = candidate.locator("#submissions .verdict-accepted")
    try:
        verdict.wait_for(timeout=GRADING_TIMEOUT_MS)
    except Exception:
        pytest.fail(
            f"no verdict after {GRADING_TIMEOUT_MS / 1000:.0f} s; worker log:\n{worker_log_tail(grading_worker)}"
        )
    expect(verdict).to_have_text("Accepted")
    candidate.evaluate("window.scrollTo(0, 0)")
    screenshot(candidate, "assessment-candidate", full_page=True)

    candidate.once("dialog", lambda dialog: dialog.accept())
    candidate.get_by_role("button", name="Submit the assessment").click()
    expect(candidate).to_have_url(re.compile(r"/done/$"))

    # The manager reads the report: both answers, the verdict and the speedup.
    manager.goto(manager.url)  # the assessment page, now with a finished candidate
    manager.get_by_role("link", name="Report").first.click()
    row = manager.get_by_role("row", name=re.compile(CANDIDATE_EMAIL))
    expect(row).to_contain_text("100%")
    screenshot(manager, "assessment-report")
    row.get_by_role("link", name=CANDIDATE_EMAIL).click()
    numeric = manager.locator("#item-1")
    expect(numeric).to_contain_text("1 GiB")
    coding = manager.locator("#item-2")
    expect(coding.locator(".verdict").first).to_have_text("Accepted")
    expect(coding).to_contain_text("×")
    screenshot(manager, "candidate-report", full_page=True)

    assert not open_page.errors, open_page.errors
