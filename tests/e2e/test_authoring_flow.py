"""An author writes a numeric question in the browser (a unit learners could not type
is refused first), previews it as a learner reads it, publishes it, and a learner then
answers it with its unit."""

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from .conftest import PASSWORD

pytestmark = pytest.mark.browser

PROMPT = "How much memory do 16 Mi float32 values take?"


@pytest.fixture
def people(transactional_db, make_user):
    author = make_user("author", is_staff=True, password=PASSWORD)
    # The permission itself, not the "Authors" group: a data migration makes the group, and an earlier
    # transactional test's flush removes it (permissions are made again after a flush, groups are not).
    author.user_permissions.add(Permission.objects.get(codename="author_questions"))
    make_user("learner", password=PASSWORD)


def sign_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_an_author_writes_previews_and_publishes_and_a_learner_answers(open_page, people, screenshot):
    page = open_page()
    sign_in(page, "author")
    page.get_by_role("navigation").get_by_role("link", name="Authoring").click()
    page.get_by_role("link", name="New numeric question").click()
    page.get_by_label("Title").fill("Tile size")
    page.get_by_label("Topic").select_option("Technical Foundation and Self Assessment")
    page.get_by_label("Difficulty").select_option("easy")
    page.get_by_label("Prompt").fill(PROMPT)
    page.get_by_label("Expected answer").fill("64")
    page.get_by_label("Unit").fill("Mib")  # pint's mebibarn: learners typing "64 Mib" would be refused
    page.get_by_label("Tolerance").fill("0.01")
    page.get_by_label("Sample answer").fill("64 MiB.")
    page.get_by_label("Explanation").fill("16 Mi values times 4 bytes is 64 MiB.")
    page.get_by_role("button", name="Save as a draft").click()
    expect(page.get_by_role("alert")).to_contain_text("Write the unit as “Mibit”")
    expect(page.get_by_label("Prompt")).to_have_value(PROMPT)
    screenshot(page, "authoring-numeric-form", full_page=True)
    page.get_by_label("Unit").fill("MiB")
    page.get_by_role("button", name="Save as a draft").click()
    expect(page.get_by_role("heading", name="Tile size")).to_be_visible()

    page.get_by_role("link", name="View as a candidate").click()
    expect(page.get_by_text(PROMPT)).to_be_visible()
    expect(page.get_by_text("A bare number is read in MiB")).to_be_visible()
    page.go_back()
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published: it is on the public pages now.")).to_be_visible()
    page.get_by_role("link", name="Authoring", exact=True).first.click()
    expect(page.get_by_role("row", name="Tile size")).to_contain_text("Published")
    screenshot(page, "authoring-home")

    learner = open_page()
    sign_in(learner, "learner")
    learner.goto("/questions/tile-size/")
    learner.get_by_label("Your answer").fill("64 MiB")
    learner.get_by_label("4 · confident").check()
    learner.get_by_role("button", name="Check my answer").click()
    expect(learner.get_by_role("heading", name="Correct")).to_be_visible()
    assert open_page.errors == []
