"""Keyboard access, visible focus and labelled controls, checked in Chromium on the main pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from questions.models import Question
from submissions.models import Submission
from submissions.states import Status, Verdict

from .conftest import PHONE, sign_up

pytestmark = pytest.mark.browser

#: Form controls a person can reach but that nothing names: no <label>, aria-label or aria-labelledby.
UNLABELLED_CONTROLS = """
() => [...document.querySelectorAll("input, select, textarea, [contenteditable=true]")]
  .filter((el) => !["hidden", "submit", "button"].includes(el.type) && !el.hidden && el.offsetParent !== null)
  .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby"))
  .map((el) => el.outerHTML.slice(0, 120))
"""
PAGES = [
    "/",
    "/questions/",
    "/questions/activation-tensor-fp32-size/",
    "/questions/what-is-a-feature-store/",
    "/questions/python-loop-to-numpy/",
    "/questions/progress/",
    "/leaderboards/",
    "/leaderboards/exercises/python-loop-to-numpy/",
    "/teams/",
    "/teams/new/",
    "/accounts/profile/",
    "/no-such-page/",
]


def test_the_keyboard_reaches_content_with_a_visible_focus(bank, open_page):
    page = open_page()
    page.goto("/questions/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box and box["x"] >= 0 and box["y"] >= 0, "the skip link shows itself when focused"
    page.keyboard.press("Enter")
    # A fragment navigation reaches Playwright as an event: wait for it rather than read the URL at once.
    expect(page).to_have_url(re.compile(r"#main$"))

    # Every link and button shows where the focus is.
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none"), f"no focus outline on {page.evaluate('document.activeElement.outerHTML')}"


def test_every_control_on_the_main_pages_is_labelled(bank, open_page):
    page = open_page()
    page.goto("/accounts/signup/")
    assert page.evaluate(UNLABELLED_CONTROLS) == []
    sign_up(page, "labels", "labels@example.com")
    for path in PAGES:
        page.goto(path)
        page.wait_for_load_state("load")
        assert page.evaluate(UNLABELLED_CONTROLS) == [], path
    assert not open_page.errors, open_page.errors


def test_a_phone_gets_a_one_column_layout_and_a_keyboard_friendly_menu(bank, open_page, screenshot):
    page = open_page(viewport=PHONE)
    page.goto("/")
    # Nothing wider than the screen: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "home-phone")

    main_menu = page.get_by_role("navigation", name="Main")
    menu = main_menu.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(main_menu.get_by_role("link", name="Leaderboards")).to_be_hidden()
    menu.focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(main_menu.get_by_role("link", name="Leaderboards")).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()

    menu.click()
    main_menu.get_by_role("link", name="Practice").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Practice questions")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto("/questions/python-loop-to-numpy/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not open_page.errors, open_page.errors


def test_a_phone_scrolls_a_wide_table_inside_it_not_the_page(bank, open_page):
    """A screen-reader-only label in a table's last column (the edit button's "submission N")
    was positioned against the page and widened it by 40-60 px on a phone, past the table's
    own scrolling box."""
    page = open_page(viewport=PHONE)
    page.goto("/accounts/signup/")
    sign_up(page, "phone", "phone@example.com")
    person = get_user_model().objects.get(username="phone")
    exercise = Question.objects.get(slug="python-loop-to-numpy").current_exercise()
    for speedup in (91.4, 125.0):
        Submission.objects.create(
            user=person,
            exercise=exercise,
            code="import numpy as np\n",
            status=Status.DONE,
            verdict=Verdict.ACCEPTED,
            speedup=speedup,
            speedup_ci_low=75.9,
            speedup_ci_high=835.0,
            hardware="cpu",
        )

    page.goto("/questions/python-loop-to-numpy/")
    expect(page.get_by_role("heading", name="Your previous submissions")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
