"""The loop a learner repeats: edit, submit, read, edit again, in a real browser.
Code is never lost (autosaved draft, Back, the exercise's
link, "Edit again"), the "How it compares" chart draws when the result arrives
live, and a GPU exercise says before any submission that no GPU worker is online."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from leaderboards.models import LeaderboardEntry
from questions.models import Question
from submissions.models import Submission
from submissions.services import gpu_workers, lifecycle
from submissions.states import Status, Verdict

from .conftest import sign_up
from .test_practice_flow import type_into_editor

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: An exercise that grades in seconds even on a busy machine (a 600 x 600 Python double loop at most).
CODING_SLUG = "pairwise-distances"
#: Typed line by line: the editor indents after "def ...:" by itself.
ANSWER = [
    "import numpy as np",
    "",
    "def pairwise_distances(A, B):",
    "diff = A[:, None, :] - B[None, :, :]",
    'return np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))',
]
EXPECTED_CODE = (
    "import numpy as np\n\ndef pairwise_distances(A, B):\n    diff = A[:, None, :] - B[None, :, :]\n"
    '    return np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))'
)
GPU_SLUG = "fused-axpy-relu"
#: Other people's best speedups on the exercise, so "How it compares" has bars to draw.
OTHERS_SPEEDUPS = (1.5, 3.0, 6.0)
SCRATCH = ["def pairwise_distances(A, B):", "return A  # a first try, kept as a draft"]


def others_on_the_board():
    question = Question.objects.get(slug=CODING_SLUG)
    exercise = question.current_exercise()
    for number, speedup in enumerate(OTHERS_SPEEDUPS):
        user = get_user_model().objects.create_user(
            f"rival{number}", f"rival{number}@example.com", "a-long-passphrase-42"
        )
        submission = Submission.objects.create(
            user=user,
            exercise=exercise,
            code="# theirs\n",
            status=Status.DONE,
            verdict=Verdict.ACCEPTED,
            speedup=speedup,
            hardware="cpu",
            finished_at=timezone.now(),
        )
        LeaderboardEntry.objects.create(
            user=user,
            question=question,
            hardware="cpu",
            submission=submission,
            speedup=speedup,
            achieved_at=timezone.now(),
        )


def editor_text(page):
    return page.locator("textarea#code-editor").input_value().replace("\r\n", "\n").rstrip()


def test_code_is_kept_through_back_links_and_edit_again(bank, open_page):
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "looper", "looper@example.com")

    # A first try, autosaved as typed: leaving by a link and coming back keeps it.
    page.goto(f"/questions/{CODING_SLUG}/")
    type_into_editor(page, SCRATCH)
    expect(page.locator(".coding-form .draft-status")).to_contain_text("Draft saved")
    page.get_by_role("link", name="All questions").click()
    page.goto(f"/questions/{CODING_SLUG}/")
    expect(page.locator(".cm-content")).to_contain_text("a first try, kept as a draft")

    # The real answer, submitted from the keyboard.
    type_into_editor(page, ANSWER)
    assert editor_text(page) == EXPECTED_CODE
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r"/submissions/\d+/$"))
    submission_url = page.url

    # Back: the editor holds what was submitted, not the starter.
    page.go_back()
    expect(page.locator(".cm-editor")).to_be_visible()
    assert editor_text(page) == EXPECTED_CODE

    # Edit something else, then "Edit again" on the submission brings its code back.
    type_into_editor(page, SCRATCH)
    expect(page.locator(".coding-form .draft-status")).to_contain_text("Draft saved")
    page.goto(submission_url)
    page.get_by_role("button", name="Edit again").click()
    expect(page).to_have_url(re.compile(rf"/questions/{CODING_SLUG}/#code-editor$"))
    expect(page.locator(".cm-editor")).to_be_visible()
    assert editor_text(page) == EXPECTED_CODE

    assert not open_page.errors, open_page.errors


def accepted_report(speedup):
    """What a worker writes for an accepted answer (submissions.services.lifecycle.finish takes it as the harness's)."""
    sizes = [
        {
            "size": size,
            "time_s": seconds / speedup,
            "reference_time_s": seconds,
            "speedup": speedup,
            "speedup_ci": [speedup * 0.9, speedup * 1.1],
            "peak_memory_bytes": 3 * size * size * 8,
            "reference_peak_memory_bytes": size * size * 8,
            "correct": True,
            "first_call_s": seconds / speedup,
            "pairs": 7,
        }
        for size, seconds in ((150, 0.05), (300, 0.2), (600, 0.8))
    ]
    return {
        "verdict": Verdict.ACCEPTED,
        "message": "Correct on all 3 sizes.",
        "speedup": speedup,
        "speedup_ci": [speedup * 0.9, speedup * 1.1],
        "peak_memory_bytes": sizes[-1]["peak_memory_bytes"],
        "reference_peak_memory_bytes": sizes[-1]["reference_peak_memory_bytes"],
        "sizes": sizes,
        "scaling_exponent": 2.0,
        "reference_scaling_exponent": 2.0,
        "first_call_s": 0.002,
        "hint": "",
        "failure": None,
        "hardware": "cpu",
        "mode": "full",
    }


def test_the_live_result_draws_how_it_compares(bank, open_page):
    """The page is open while the row turns final (as a worker's finish() does), so the
    report and the standing arrive by the page's own polling, never by a reload."""
    others_on_the_board()
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "watcher", "watcher@example.com")
    learner = get_user_model().objects.get(username="watcher")
    exercise = Question.objects.get(slug=CODING_SLUG).current_exercise()
    submission = Submission.objects.create(
        user=learner, exercise=exercise, code="\n".join(EXPECTED_CODE.splitlines()) + "\n"
    )
    page.goto(submission.get_absolute_url())
    expect(page.locator("#submission-status")).to_have_text("Queued")

    Submission.objects.filter(pk=submission.pk).update(status=Status.RUNNING, attempts=1, started_at=timezone.now())
    lifecycle.finish(Submission.objects.get(pk=submission.pk), accepted_report(4.0))

    expect(page.locator("#submission-report .verdict")).to_have_text("Accepted")
    chart = page.locator("canvas[data-standing-chart]")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("data-drawn", "1")  # drawn from its data, without a reload
    expect(page.locator(".standing-summary")).to_contain_text("Faster than 66% of accepted submissions")
    assert not open_page.errors, open_page.errors


def test_a_gpu_exercise_says_no_gpu_worker_is_online_before_submitting(bank, open_page):
    cache.delete_many([gpu_workers.GPU_HEARTBEAT_KEY, gpu_workers.GPU_SEEN_KEY])  # an install that never had one
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, "gpu-learner", "gpu-learner@example.com")
    page.goto(f"/questions/{GPU_SLUG}/")
    expect(page.locator("#no-gpu-worker")).to_contain_text("This Hotpath has no GPU worker (none has ever connected)")
    expect(page.get_by_role("button", name="Submit for grading")).to_be_disabled()
    expect(page.get_by_role("button", name="Run on small inputs")).to_be_disabled()
    page.locator(".cm-content").click()
    page.keyboard.press("Control+Enter")  # the shortcut presses no disabled button
    expect(page).to_have_url(re.compile(rf"/questions/{GPU_SLUG}/$"))
    assert not open_page.errors, open_page.errors
