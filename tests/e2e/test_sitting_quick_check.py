"""A candidate in a sitting runs a quick check from the editor, as in practice (issue 18,
item 7): the result arrives live on the question's page, with the quick check's own row,
and it never counts towards the score (a real Celery worker and the bubblewrap sandbox)."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from submissions.models import Purpose
from teams import reports

from .conftest import GRADING_TIMEOUT_MS, sign_up, worker_log_tail
from .test_candidate_editor import sitting_for
from .test_learner_loop import ANSWER, EXPECTED_CODE
from .test_practice_flow import type_into_editor

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_candidate_runs_a_quick_check_that_is_never_scored(bank, grading_worker, open_page):
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "checker", "checker@example.com")
    session = sitting_for(get_user_model().objects.get(username="checker"))

    page.goto(f"/teams/sessions/{session.pk}/q/1/")
    expect(page.get_by_text("quick checks never count")).to_be_visible()
    type_into_editor(page, ANSWER)
    assert page.locator("textarea#code-editor").input_value().startswith(EXPECTED_CODE)
    page.get_by_role("button", name="Run on small inputs").click()

    page.wait_for_url(re.compile(r"/q/1/#submissions$"))
    expect(page.get_by_text("Quick check started")).to_be_visible()
    row = page.locator('#submissions tr[data-kind="check"]')
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("Quick check")
    try:  # the page polls the status endpoint until the worker's verdict arrives
        expect(row).to_have_attribute("data-final", "true", timeout=GRADING_TIMEOUT_MS)
    except AssertionError:
        pytest.fail(
            f"no quick-check result after {GRADING_TIMEOUT_MS / 1000:.0f} s; worker log:\n{worker_log_tail(grading_worker)}"
        )
    expect(row.locator(".result .verdict")).to_have_text("Correct on small inputs")
    expect(row.locator(".speedup")).to_have_text("")  # a quick check times nothing
    # The code is still in the editor, and nothing counts as an answer.
    assert page.locator("textarea#code-editor").input_value().replace("\r\n", "\n").startswith(EXPECTED_CODE)
    expect(page.locator(".question-steps a.answered")).to_have_count(0)

    [link] = session.session_submissions.select_related("submission")
    assert link.submission.purpose == Purpose.ASSESSMENT_CHECK and link.submission.verdict == "accepted"
    result = reports.candidate_report(session).results[0]
    assert result.score == 0.0 and result.submissions == [] and result.checks == [link.submission]
    assert not open_page.errors, open_page.errors
