"""Run my input in Chromium (issue 34, item 6): on an exercise's page a learner enters a size
and a seed, runs them, and sees in place, under the editor, both answers side by side and both
call times, from a real Celery worker and the bubblewrap sandbox."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from submissions.models import Purpose, Submission

from .conftest import GRADING_TIMEOUT_MS, worker_log_tail
from .test_submission_feedback import SLUG, signed_up_learner

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZE, SEED = 20, 7
TIME = re.compile(r"^\d[\d.]* (µs|ms|s)$")


def test_a_learner_runs_their_code_on_their_own_size_and_seed(bank, grading_worker, open_page):
    page, learner = signed_up_learner(open_page, "own-input")
    page.goto(f"/questions/{SLUG}/")
    exercise_url = page.url
    page.get_by_text("Run on my own input").click()
    page.get_by_label("Size").fill(str(SIZE))
    page.get_by_label("Seed").fill(str(SEED))
    page.get_by_role("button", name="Run my input").click()

    result = page.locator("#quick-check-result")
    try:
        expect(result.locator(".custom-input-run")).to_be_visible(timeout=GRADING_TIMEOUT_MS)
    except AssertionError:
        pytest.fail(
            f"no result after {GRADING_TIMEOUT_MS / 1000:.0f} s; worker log:\n{worker_log_tail(grading_worker)}"
        )
    assert page.url == exercise_url
    expect(result.locator(".verdict")).to_have_text("Same answer as the reference on your input")
    expect(result).to_contain_text(f"Size {SIZE}, seed {SEED}")
    x = np.random.default_rng(SEED).uniform(-30.0, 30.0, SIZE)
    first = str(((2.0 * x + 1.0) ** 2)[0])
    for row in (".custom-input-submission", ".custom-input-reference"):
        cells = result.locator(f"{row} td")
        expect(cells.nth(0)).to_contain_text(f"float64 array, shape ({SIZE},): [{first}, ")
        expect(cells.nth(1)).to_have_text(TIME)
        expect(cells.nth(2)).to_have_text(TIME)
    expect(result.locator(".custom-input-match")).to_have_text("The answers match.")

    check = Submission.objects.get(user=learner)
    assert check.purpose == Purpose.QUICK_CHECK and check.custom_input == {"size": SIZE, "seed": SEED, "args": None}
    assert open_page.errors == []
