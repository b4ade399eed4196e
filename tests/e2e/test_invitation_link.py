"""The manager copies a candidate's invitation link from the assessment page (issue 18,
"Smaller"): the Copy button puts it on the clipboard where the browser allows it, and
otherwise leaves the whole link selected to copy by hand."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from questions.models import Kind, Question
from teams import services
from teams.models import Assessment

from .conftest import PASSWORD

pytestmark = [pytest.mark.browser]

LINK = re.compile(r"^http://[^/]+/teams/invitation/[^/]+/$")


@pytest.fixture
def assessment(transactional_db):
    manager = get_user_model().objects.create_user("link-manager", "link-manager@example.com", PASSWORD)
    organisation = services.create_organisation(manager, "Acme Performance")
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=30,
        created_by=manager,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=1),
    )
    question = Question.objects.create(
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
    services.add_question(assessment, question)
    return services.publish_assessment(assessment, manager)


def invite_one(page, assessment):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("link-manager")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(assessment.get_absolute_url())
    page.get_by_label("Candidate e-mail addresses").fill("ada@example.com")
    page.get_by_role("button", name="Send invitations").click()
    field = page.get_by_label("ada@example.com", exact=True)
    expect(field).to_have_value(LINK)
    return field


def whole_value_selected(field):
    return field.evaluate(
        "el => document.activeElement === el && el.selectionStart === 0 && el.selectionEnd === el.value.length"
    )


def test_copy_puts_the_link_on_the_clipboard(open_page, assessment):
    page = open_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    field = invite_one(page, assessment)
    page.get_by_role("button", name="Copy invitation link").click()
    expect(page.locator(".copy-status")).to_have_text("Copied the link for ada@example.com.")
    assert page.evaluate("navigator.clipboard.readText()") == field.input_value()
    assert whole_value_selected(field)
    assert not open_page.errors, open_page.errors


def test_without_the_clipboard_the_link_is_left_selected(open_page, assessment):
    page = open_page()
    # As in a browser that refuses the Clipboard API and the old copy command alike.
    page.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: undefined});document.execCommand = () => false;"
    )
    field = invite_one(page, assessment)
    page.get_by_role("button", name="Copy invitation link").click()
    expect(page.locator(".copy-status")).to_have_text("The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.")
    assert whole_value_selected(field)
    assert not open_page.errors, open_page.errors
