"""The submission page's issue-15 feedback in a real browser: live progress while a
grading runs (phase, elapsed, time left, updated by polling), and once graded the
roofline chart against the machine's measured roofs, its hint and the profile."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from grader import roofline
from questions.models import Question
from submissions import progress
from submissions.models import Submission
from submissions.states import Status, Verdict

from .conftest import sign_up

pytestmark = [pytest.mark.browser]

SLUG = "python-loop-to-numpy"
LIMITS = {
    "host": "grader-1",
    "cpu_model": "Test CPU 3000",
    "cpu": 1,
    "logical_cpus": 2,
    "bandwidth_gbs": 10.0,
    "copy_gbs": 9.0,
    "triad_gbs": 10.0,
    "compute_gflops": 20.0,
    "measured_at": "2026-12-03T15:00:00+00:00",
    "command": "python manage.py measure_host",
}
PROFILE = {
    "status": "done",
    "reason": "",
    "size": 6400000,
    "seconds": 0.2,
    "traced_s": 0.19,
    "functions": [{"function": "transform", "line": 4, "calls": 1, "own_s": 0.19, "cumulative_s": 0.2}],
    "lines": [{"line": 2, "code": "return (2 * x + 1) ** 2", "hits": 1, "seconds": 0.19}],
}


def graded_report():
    sizes = [
        {
            "size": n,
            "time_s": 16 * n / 8.4e9,
            "reference_time_s": n * 3e-6,
            "speedup": 50.0,
            "speedup_ci": [45.0, 55.0],
            "peak_memory_bytes": 8 * n,
            "reference_peak_memory_bytes": 8 * n,
            "correct": True,
            "first_call_s": 0.01,
            "pairs": 5,
        }
        for n in (100_000, 800_000, 6_400_000)
    ]
    report = {
        "verdict": Verdict.ACCEPTED,
        "mode": "full",
        "message": "Correct on every input.",
        "speedup": 50.0,
        "speedup_ci": [45.0, 55.0],
        "peak_memory_bytes": 1,
        "reference_peak_memory_bytes": 1,
        "hardware": "cpu",
        "failure": None,
        "hint": None,
        "sizes": sizes,
        "profile": PROFILE,
    }
    report["roofline"] = roofline.for_report({"work": {"bytes": "16*n", "flops": "3*n"}}, report, LIMITS)
    return report


def signed_up_learner(open_page, name):
    page = open_page()
    page.goto("/accounts/signup/")
    sign_up(page, name, f"{name}@example.com")
    return page, get_user_model().objects.get(username=name)


def test_the_roofline_chart_its_hint_and_the_profile(bank, open_page):
    page, learner = signed_up_learner(open_page, "roofline-reader")
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
    page.goto(f"/submissions/{submission.pk}/")
    expect(page.get_by_role("heading", name="How close to this machine's limits")).to_be_visible()
    expect(page.get_by_text(re.compile(r"you are at 84% of this machine's memory bandwidth"))).to_be_visible()
    datasets = page.evaluate(
        "() => Chart.getChart(document.getElementById('roofline-chart')).data.datasets.map(d => [d.label, d.data.length])"
    )
    assert [count for _, count in datasets] == [3, 3, 3], datasets
    assert "10 GB/s" in datasets[0][0] and "20 GFLOP/s" in datasets[0][0]
    expect(page.get_by_role("heading", name="Where the time went")).to_be_visible()
    expect(page.locator("table.profile-table code", has_text="transform")).to_be_visible()
    line_row = page.locator("table.profile-lines tbody tr")
    expect(line_row).to_have_count(1)
    expect(line_row).to_contain_text("return (2 * x + 1) ** 2")
    expect(line_row.locator("td").last).to_have_text("100%")
    assert open_page.errors == []


def test_live_progress_while_a_grading_runs(bank, open_page):
    page, learner = signed_up_learner(open_page, "progress-watcher")
    exercise = Question.objects.get(slug=SLUG).current_exercise()
    submission = Submission.objects.create(
        user=learner, exercise=exercise, code="x = 1\n", status=Status.RUNNING, started_at=timezone.now(), attempts=1
    )
    store = progress.ProgressStore(submission.pk)
    store(
        {
            "phase": "checking",
            "size_index": None,
            "sizes": None,
            "pair": None,
            "pairs": None,
            "elapsed_s": 1.0,
            "eta_s": 20.0,
        }
    )
    page.goto(f"/submissions/{submission.pk}/")
    expect(page.locator("#progress-label")).to_have_text("Checking correctness")
    expect(page.locator("#progress-eta")).to_contain_text("s left")
    store({"phase": "timing", "size_index": 2, "sizes": 3, "pair": 4, "pairs": 15, "elapsed_s": 8.0, "eta_s": 9.0})
    expect(page.locator("#progress-label")).to_have_text("Timing size 2 of 3, pair 4 of 15")
    assert 0 < page.evaluate("() => document.getElementById('progress-bar').value") < 1
    store.clear()
    assert open_page.errors == []
