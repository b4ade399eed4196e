"""Issue 32's papercuts that show only in a browser: the editor's way back to the starter
and the quick check shown in place (laptop, light), then at 390 px in the dark theme a
roofline that is a chart and per-size tables that say they scroll, and at 1366 px the
access-token table whole with a copy button and the assessment form's checkboxes beside
their labels."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from questions.models import Question
from submissions.models import Submission
from submissions.states import Status, Verdict
from teams.models import Membership, Organisation, Role

from .conftest import LAPTOP, PHONE
from .test_learner_loop import editor_text
from .test_practice_flow import type_into_editor
from .test_submission_feedback import SLUG, graded_report, signed_up_learner

pytestmark = [pytest.mark.browser]

MINE = ["def transform(x):", "return x  # mine"]


def test_reset_to_starter_with_undo_and_the_quick_check_in_place(bank, open_page):
    page, learner = signed_up_learner(open_page, "resetter")
    starter = Question.objects.get(slug=SLUG).current_exercise().starter_code.rstrip()
    page.goto(f"/questions/{SLUG}/")
    expect(page.locator("#unverified-notice")).to_have_count(0)
    type_into_editor(page, MINE)
    mine = editor_text(page)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Reset to starter").click()
    expect(page.locator(".coding-form .draft-status")).to_contain_text("Starter code back")
    assert editor_text(page) == starter
    page.keyboard.press("Control+z")
    assert editor_text(page) == mine

    exercise_url = page.url
    page.get_by_role("button", name="Run on small inputs").click()
    result = page.locator("#quick-check-result")
    expect(result).to_contain_text(re.compile(r"Quick check: (queued|running)"))  # sent, and polled
    check = Submission.objects.get(user=learner, purpose="check")
    assert page.url == exercise_url and editor_text(page) == mine
    Submission.objects.filter(pk=check.pk).update(
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        finished_at=timezone.now(),
        report={"verdict": Verdict.ACCEPTED, "mode": "check", "message": "Correct on every small input."},
    )
    expect(result.locator(".verdict").first).to_have_text("Correct on small inputs", timeout=15_000)
    link = result.get_by_role("link", name="Open this quick check's page")
    expect(link).to_have_attribute("href", check.get_absolute_url())
    assert open_page.errors == []


def test_phone_charts_and_tables_and_the_wide_token_and_assessment_pages(bank, open_page):
    page, learner = signed_up_learner(open_page, "phoner")
    exercise = Question.objects.get(slug=SLUG).current_exercise()
    submission = Submission.objects.create(
        user=learner,
        exercise=exercise,
        code="def transform(x):\n    return (2 * x + 1) ** 2\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report=graded_report(),
        speedup=50.0,
        hardware="cpu",
        finished_at=timezone.now(),
    )
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="dark")
    page.goto(f"/submissions/{submission.pk}/")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    chart = page.evaluate("""() => {
        const chart = Chart.getChart(document.getElementById('roofline-chart'));
        const points = chart.data.datasets.slice(1).flatMap((set) => set.data.map((point) => point.y));
        const boxes = chart.legend.legendHitBoxes;
        return {height: chart.height, width: chart.width, yMin: chart.scales.y.min, lowest: Math.min(...points),
                legendRight: Math.max(...boxes.map((box) => box.left + box.width)),
                orders: Object.fromEntries(chart.data.datasets.map((set) => [set.label.split(':')[0], set.order]))};
    }""")
    assert chart["height"] >= 250, chart  # a chart, not a 60 px strip
    assert chart["legendRight"] <= chart["width"], chart  # the legend is not cut off
    assert chart["yMin"] < chart["lowest"], chart  # no point on the bottom edge
    orders = chart["orders"]
    assert orders["Reference"] < orders["Your code"] < orders["Roofs"], chart  # the reference drawn on top
    sizes_table = page.locator(".table-wrap", has=page.locator("table.roofline-table"))
    expect(sizes_table).to_have_attribute("data-overflow", "right")
    assert sizes_table.evaluate("(wrap) => getComputedStyle(wrap).boxShadow") != "none"
    sizes_table.evaluate("(wrap) => { wrap.scrollLeft = wrap.scrollWidth; }")
    expect(sizes_table).to_have_attribute("data-overflow", "left")

    page.set_viewport_size(LAPTOP)
    page.emulate_media(color_scheme="light")
    page.goto("/api/tokens/")
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create token").click()
    page.get_by_role("button", name="Copy token").click()
    expect(page.locator(".token-new .copy-status")).to_have_text(re.compile(r"Copied\.|press Ctrl\+C"))
    for cell in (page.get_by_role("columnheader", name="State"), page.get_by_role("button", name="Revoke laptop")):
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= LAPTOP["width"] - 20, box
    expect(page.locator(".table-wrap").first).not_to_have_attribute("data-overflow", re.compile("."))

    organisation = Organisation.objects.create(name="Papercut Labs", slug="papercut-labs")
    Membership.objects.create(user=learner, organisation=organisation, role=Role.OWNER)
    page.goto(f"/teams/org/{organisation.slug}/assessments/new/")
    box = page.get_by_role("checkbox", name="Results").bounding_box()
    label = page.locator("fieldset.candidate-view label", has_text="Results").bounding_box()
    assert abs(box["y"] + box["height"] / 2 - (label["y"] + label["height"] / 2)) < 12, (box, label)  # side by side
    assert box["x"] + box["width"] <= label["x"], (box, label)
    assert open_page.errors == []
