"""A learner sits a 20-minute mock interview in a real browser: starts it from the
navigation, answers the concept and numeric questions (kept by the page's autosave),
submits the interview and reads the report, marking the concept answer on its rubric."""

import re

import pytest
from playwright.sync_api import expect

from questions.models import Kind
from tests.mock_interviews.bank import make_coding, make_concept, make_numeric

from .conftest import sign_up

pytestmark = pytest.mark.browser


def answer(page, label, text, confidence):
    page.get_by_label(label).fill(text)
    page.get_by_label("How sure are you? (1–5)").select_option(confidence)
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".save-status")).to_contain_text("Saved")


def test_a_learner_completes_a_short_mock_interview(transactional_db, open_page, screenshot):
    bank = {
        Kind.CONCEPT: make_concept("doubling-table"),
        Kind.NUMERIC: make_numeric("gib-in-bytes"),
        Kind.CODING: make_coding("square-values"),
    }
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "mocker", "mocker@example.com")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Mock interview").click()
    expect(page.get_by_label("20 minutes")).to_be_checked()
    page.get_by_role("button", name="Start the mock interview").click()
    expect(page).to_have_url(re.compile(r"/mock-interviews/\d+/q/1/$"))
    expect(page.locator(".countdown-value")).to_have_text(re.compile(r"^(19|20):\d\d$"))

    expect(page.get_by_role("heading", level=1)).to_have_text(f"Q1. {bank[Kind.CONCEPT].title}")
    answer(page, "Your answer", "Each doubling copies the items: a geometric series.", "4")
    page.get_by_role("link", name="Next").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Q2. {bank[Kind.NUMERIC].title}")
    answer(page, "Your answer", "4 GiB", "5")
    screenshot(page, "mock-interview-question")
    page.get_by_role("link", name="Next").click()
    expect(page.locator("textarea#code-editor")).to_be_attached()  # the practice editor, the starter code in it

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish and see the report").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mock interview report")
    expect(page.locator("#q2 .item-score")).to_contain_text("1.00")
    expect(page.locator("#q1 .item-score")).to_contain_text("not marked yet")

    page.get_by_label("Geometric series").check()
    page.get_by_role("button", name="Mark my answer").click()
    expect(page.locator("#q1 .item-score")).to_contain_text("0.50")
    expect(page.locator(".calibration-error")).to_contain_text("over 2 scored answers")
    screenshot(page, "mock-interview-report", full_page=True)
    page.get_by_role("link", name="Another mock interview").click()
    expect(page.locator("table.mock-history tbody tr")).to_have_count(1)
    assert not open_page.errors, open_page.errors
