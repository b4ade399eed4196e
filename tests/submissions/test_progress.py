"""Live progress: the worker keeps the harness's latest phase in the cache, the
status endpoint and the page show it, `manage.py grade` draws it on a terminal."""

import io

import pytest
from django.core.cache import cache
from django.core.management.base import OutputWrapper
from django.urls import reverse
from django.utils import timezone

from submissions import progress
from submissions.management.commands.grade import Command as GradeCommand
from submissions.models import Purpose, Submission
from submissions.services import lifecycle, queueing
from submissions.states import Status

from .conftest import needs_harness

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"
TIMING = {"phase": "timing", "size_index": 2, "sizes": 3, "pair": 5, "pairs": 21, "elapsed_s": 6.0, "eta_s": 9.0}


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "grader-progress"}
    }
    cache.clear()


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_store_writes_at_most_once_a_second_but_never_skips_a_phase():
    clock = Clock()
    store = progress.ProgressStore(7, clock=clock)
    store.start()
    assert progress.latest(7)["phase"] == "starting"
    store({**TIMING, "pair": 1})
    clock.now += 0.3
    store({**TIMING, "pair": 2})  # same phase within a second: not written
    assert progress.latest(7)["pair"] == 1
    clock.now += 0.8
    store({**TIMING, "pair": 3})
    assert progress.latest(7)["pair"] == 3
    clock.now += 0.1
    store({"phase": "comparing", "elapsed_s": 12.0, "eta_s": 0.5})  # a new phase is written at once
    assert progress.latest(7)["phase"] == "comparing"
    store.clear()
    assert progress.latest(7) is None


def test_labels_name_the_phase_size_and_pair():
    assert progress.label(TIMING) == "Timing size 2 of 3, pair 5 of 21"
    assert progress.label({"phase": "checking"}) == "Checking correctness"
    assert progress.label({"phase": "queued"}, queue_position=0) == "Queued: next in line"
    assert progress.label({"phase": "queued"}, queue_position=2) == "Queued: 2 submissions ahead"


def test_the_estimate_left_counts_down_from_when_it_was_stored():
    stored = {**TIMING, "stored_at": progress.time.time() - 4.0}
    shown = progress.describe(stored, elapsed_s=10.0)
    assert 4.5 <= shown["eta_s"] <= 5.0 and shown["elapsed_s"] == 10.0
    assert 0.6 < shown["fraction"] < 0.7
    assert progress.describe({**TIMING, "stored_at": progress.time.time() - 60})["eta_s"] == 0.0


def test_without_an_estimate_timing_says_it_is_estimating_and_other_phases_say_nothing():
    assert progress.describe({**TIMING, "eta_s": None})["time_left"] == ", estimating the time left…"
    assert progress.describe({"phase": "checking"})["time_left"] == ""
    assert progress.describe({**TIMING, "stored_at": progress.time.time()})["time_left"] == ", about 9 s left"


def test_submission_progress_queued_running_and_done(candidate, outsider, exercise_version):
    ahead = Submission.objects.create(user=outsider, exercise=exercise_version, code=CODE)
    mine = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)
    shown = queueing.submission_progress(mine)
    assert (shown["phase"], shown["queue_position"], shown["label"]) == ("queued", 1, "Queued: 1 submission ahead")

    Submission.objects.filter(pk=ahead.pk).update(status=Status.RUNNING, started_at=timezone.now())
    ahead.refresh_from_db()
    assert queueing.submission_progress(ahead)["label"] == "Starting the sandbox"
    progress.ProgressStore(ahead.pk)(TIMING)
    shown = queueing.submission_progress(ahead)
    assert shown["label"] == "Timing size 2 of 3, pair 5 of 21" and shown["elapsed_s"] is not None

    Submission.objects.filter(pk=ahead.pk).update(status=Status.DONE)
    ahead.refresh_from_db()
    assert queueing.submission_progress(ahead) is None


def test_the_status_endpoint_and_page_show_progress(candidate_client, candidate, exercise_version):
    submission = Submission.objects.create(
        user=candidate, exercise=exercise_version, code=CODE, status=Status.RUNNING, started_at=timezone.now()
    )
    progress.ProgressStore(submission.pk)(TIMING)
    data = candidate_client.get(reverse("submissions:status", args=[submission.pk])).json()
    assert data["progress"]["phase"] == "timing"
    assert data["progress"]["label"] == "Timing size 2 of 3, pair 5 of 21"
    assert data["progress"]["eta_s"] is not None
    page = candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "Timing size 2 of 3, pair 5 of 21" in page and 'id="progress-bar"' in page and "s left" in page


def test_the_status_endpoint_has_no_progress_once_final(candidate_client, candidate, exercise_version):
    submission = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE, status=Status.DONE)
    assert candidate_client.get(reverse("submissions:status", args=[submission.pk])).json()["progress"] is None


def test_the_grade_command_draws_one_line_per_report():
    err = io.StringIO()
    command = GradeCommand(stderr=err)
    draw = command.progress_bar()
    draw(TIMING)
    draw({**TIMING, "phase": "comparing", "elapsed_s": 14.0, "eta_s": 1.0})
    lines = err.getvalue().split("\r")[1:]
    assert len(lines) == 2 and "\n" not in err.getvalue()
    assert "Timing size 2 of 3, pair 5 of 21" in lines[0] and "about 9 s left" in lines[0]
    assert lines[0].startswith("[" + "#" * 12 + ".")  # 6 s of 15: 40% of 30 characters
    assert "Comparing the results" in lines[1]


@needs_harness
@pytest.mark.django_db(transaction=True)
def test_a_real_grading_stores_its_phases_and_clears_them(candidate, exercise_version, monkeypatch):
    """The worker's callback sees the harness's phases while the sandbox runs, and
    nothing is left in the cache once the row is final."""
    written = []
    original = progress.ProgressStore._write

    def spy(self, latest):
        written.append(dict(latest))
        original(self, latest)

    monkeypatch.setattr(progress.ProgressStore, "_write", spy)
    submission = Submission.objects.create(
        user=candidate, exercise=exercise_version, code=CODE, purpose=Purpose.PRACTICE
    )
    graded = lifecycle.run_grading(submission.pk)
    phases = [entry["phase"] for entry in written]
    assert graded.status == Status.DONE and phases[0] == "starting"
    assert "timing" in phases and "checking" in phases, phases
    assert progress.latest(submission.pk) is None
