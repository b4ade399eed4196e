"""A newcomer's first session, in a real browser: from the home page to the
exercise leaderboard, through a concept question, a numeric question and a
graded coding exercise (a real Celery worker and the bubblewrap sandbox)."""

import re

import pytest
from playwright.sync_api import expect

from submissions.figures import times
from submissions.models import Submission

from .conftest import GRADING_TIMEOUT_MS, sign_up, worker_log_tail

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NUMERIC_SLUG = "activation-tensor-fp32-size"  # 1 GiB: (32, 2048, 4096) fp32 elements
CODING_SLUG = "python-loop-to-numpy"
#: Typed line by line: the editor indents after "def ...:" by itself.
NUMPY_ANSWER = [
    "import numpy as np",
    "",
    "def transform(x):",
    "y = x * 2.0",
    "y += 1.0",
    "return np.square(y, out=y)",
]
EXPECTED_CODE = "import numpy as np\n\ndef transform(x):\n    y = x * 2.0\n    y += 1.0\n    return np.square(y, out=y)"


def type_into_editor(page, lines):
    """Replace the CodeMirror document by typing, as a person would: select all, then type.
    Escape before each Enter closes any completion pop-up, so Enter makes a new line."""
    content = page.locator(".cm-editor .cm-content")
    content.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for number, line in enumerate(lines):
        if number:
            page.keyboard.press("Escape")
            page.keyboard.press("Enter")
        page.keyboard.type(line)
    page.keyboard.press("Escape")


def test_newcomer_practises_and_reaches_the_leaderboard(bank, grading_worker, open_page, screenshot):
    page = open_page()

    # The landing page says what Hotpath is and offers one obvious way in.
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("performance")
    screenshot(page, "home")
    page.get_by_role("link", name="Start practising").click()

    # One click in: an account is made on the spot, then the first concept question.
    expect(page.get_by_role("heading", level=1)).to_have_text("Create your account")
    sign_up(page, "newcomer", "newcomer@example.com")
    expect(page).to_have_url(re.compile(r"/questions/[a-z0-9-]+/$"))
    expect(page.get_by_role("button", name="Reveal sample answer")).to_be_visible()

    page.get_by_label("Your answer").fill(
        "It depends on the access pattern; measure first, then pick the simpler design."
    )
    page.get_by_label("4 · confident").check()  # asked before the sample answer is shown
    page.get_by_role("button", name="Reveal sample answer").click()
    expect(page.get_by_role("heading", name="Sample answer")).to_be_visible()
    rubric = page.locator(".rubric input[type=checkbox]")
    points = rubric.count()
    assert points >= 4, "a concept question has 4 to 8 rubric points"
    rubric.nth(0).check()
    rubric.nth(1).check()
    page.get_by_role("button", name="Save my marks").click()
    expect(page.locator(".score")).to_contain_text(f"Score: 2 of {points} points")
    expect(page.locator(".score")).to_contain_text("confidence 4 / 5")

    # A numeric question with maths: a wrong unit conversion first, then the right figure.
    page.goto(f"/questions/{NUMERIC_SLUG}/")
    expect(page.locator(".prompt .katex").first).to_be_visible()
    screenshot(page, "question-maths")
    page.get_by_label("Your answer").fill("1 GB")
    page.get_by_label("3 · fairly sure").check()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.get_by_role("heading", name="Not quite")).to_be_visible()
    page.get_by_role("link", name="Try again").click()
    page.get_by_label("Your answer").fill("1073741824 bytes")
    page.get_by_label("5 · certain").check()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.get_by_role("heading", name="Correct")).to_be_visible()
    expect(page.get_by_role("heading", name="Worked explanation")).to_be_visible()
    expect(page.locator(".result")).to_contain_text("= 1 GiB")
    screenshot(page, "numeric-result")

    page.goto("/questions/?kind=coding")
    expect(page.locator(".question-list")).to_contain_text("Replace a Python loop with one NumPy expression")
    screenshot(page, "browse")

    # The coding exercise: type a NumPy answer into the editor and submit it from the keyboard.
    page.goto(f"/questions/{CODING_SLUG}/")
    expect(page.locator(".cm-editor .cm-content")).to_be_visible()
    type_into_editor(page, NUMPY_ANSWER)
    assert page.locator("textarea#code-editor").input_value().rstrip() == EXPECTED_CODE
    screenshot(page, "coding-editor")
    page.keyboard.press("Control+Enter")

    # The submission page follows the worker live: queued or running, then the verdict.
    page.wait_for_url(re.compile(r"/submissions/\d+/$"))
    submission = Submission.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    # Browsers post textarea lines with CRLF endings.
    assert submission.code.replace("\r\n", "\n").rstrip() == EXPECTED_CODE and submission.purpose == "practice"
    expect(page.locator("#submission-status")).to_have_text(re.compile(r"Queued|Running"))
    verdict = page.locator("#submission-report .verdict")
    try:
        verdict.wait_for(timeout=GRADING_TIMEOUT_MS)
    except Exception:
        pytest.fail(
            f"no verdict after {GRADING_TIMEOUT_MS / 1000:.0f} s; worker log:\n{worker_log_tail(grading_worker)}"
        )
    expect(verdict).to_have_text("Accepted")
    expect(page.locator("#submission-report")).to_contain_text("faster than the reference")
    submission.refresh_from_db()
    assert submission.speedup and submission.speedup > 1, "a NumPy expression beats a Python loop"
    expect(page.locator("#scaling-chart")).to_be_visible()
    timings = page.get_by_role("link", name="Download every timed call (JSON)")
    expect(timings).to_have_attribute("href", f"/submissions/{submission.pk}/timings.json")
    screenshot(page, "submission-report", full_page=True)

    # Without opting in, the leaderboard lists the learner anonymously, marked as them.
    page.goto(f"/leaderboards/exercises/{CODING_SLUG}/")
    mine = page.locator("tr.leaderboard-you")
    expect(mine).to_contain_text("Anonymous")
    expect(mine).to_contain_text("you")

    # Opting in to a display name shows it instead.
    page.goto("/accounts/profile/")
    page.get_by_role("textbox", name="Display name").fill("Ada Fastpath")
    page.get_by_label("Show my display name on public leaderboards").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Profile saved.")).to_be_visible()
    page.goto(f"/leaderboards/exercises/{CODING_SLUG}/")
    expect(mine).to_contain_text("Ada Fastpath")
    expect(mine.locator("td.num").nth(1)).to_contain_text(times(submission.speedup))
    screenshot(page, "leaderboard")

    page.goto("/questions/progress/")
    expect(page.locator("#calibration-chart")).to_be_visible()
    screenshot(page, "progress", full_page=True)

    assert not open_page.errors, open_page.errors
