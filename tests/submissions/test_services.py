"""Submission lifecycle: validation, queueing, claiming, retries, the sweep.
Grading itself is replaced by a recorded call here (test_grading.py runs the real one)."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils import timezone

from grader import grading
from grader.errors import PlatformError
from submissions.models import Purpose, Submission
from submissions.services import gpu_workers, housekeeping, intake, lifecycle
from submissions.signals import submission_graded
from submissions.states import Status, Verdict

ACCEPTED_REPORT = {
    "verdict": Verdict.ACCEPTED,
    "message": "Correct on every input.",
    "speedup": 40.0,
    "speedup_ci": [35.0, 45.0],
    "peak_memory_bytes": 1000,
    "reference_peak_memory_bytes": 2000,
    "hardware": "cpu",
    "sizes": [],
}
CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"


@pytest.fixture
def graded_signals():
    received = []

    def receiver(sender, submission, **kwargs):
        received.append(submission.pk)

    submission_graded.connect(receiver)
    yield received
    submission_graded.disconnect(receiver)


@pytest.fixture
def grade_calls(monkeypatch):
    calls = []

    def grade(exercise, code, mode="full", backend=None, progress=None, custom_input=None):
        calls.append(mode if custom_input is None else (mode, custom_input))
        return dict(ACCEPTED_REPORT)

    monkeypatch.setattr(grading, "grade", grade)
    return calls


def make_submission(user, exercise_version, **fields):
    return Submission.objects.create(user=user, exercise=exercise_version, code=CODE, **fields)


# -- create_submission ------------------------------------------------------------


def test_create_saves_and_queues_on_commit(candidate, exercise_version, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        submission = intake.create_submission(candidate, exercise_version, CODE)
    assert submission.status == Status.QUEUED and submission.purpose == Purpose.PRACTICE
    assert queued == [([submission.pk], "cpu")]


def test_each_task_is_prioritised_by_its_place_in_the_owners_backlog(
    candidate, outsider, exercise_version, queued, django_capture_on_commit_callbacks
):
    """Fair ordering: a light user's first submission gets the same priority as a
    flooder's first, ahead of the flooder's later ones (Redis serves 0 first)."""
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            intake.create_submission(candidate, exercise_version, CODE)
        intake.create_submission(outsider, exercise_version, CODE)
    assert queued.priorities == [0, 1, 2, 0]


@pytest.mark.parametrize(
    "code, error_code",
    [
        ("x" * (64 * 1024 + 1), "too_large"),
        ("def f():\n    return '\x00'\n", "nul"),
        (b"def f():\n    return '\xff'\n", "not_utf8"),
        ("   \n", "empty"),
    ],
)
def test_create_rejects_bad_code(candidate, exercise_version, queued, code, error_code, settings):
    settings.SUBMISSION_MAX_BYTES = 64 * 1024
    with pytest.raises(ValidationError) as caught:
        intake.create_submission(candidate, exercise_version, code)
    assert caught.value.code == error_code and caught.value.messages[0]
    assert not Submission.objects.exists() and queued == []


def test_create_accepts_utf8_bytes(candidate, exercise_version, queued):
    submission = intake.create_submission(candidate, exercise_version, "# café\n".encode() + CODE.encode())
    assert submission.code.startswith("# café")


def test_per_user_limit_on_work_in_flight(candidate, outsider, exercise_version, queued, settings):
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 2
    intake.create_submission(candidate, exercise_version, CODE)
    intake.create_submission(candidate, exercise_version, CODE)
    with pytest.raises(ValidationError) as caught:
        intake.create_submission(candidate, exercise_version, CODE)
    assert caught.value.code == "too_many_queued" and "2" in caught.value.messages[0]
    intake.create_submission(outsider, exercise_version, CODE)  # other users are not affected
    Submission.objects.filter(user=candidate).update(status=Status.DONE)
    intake.create_submission(candidate, exercise_version, CODE)  # finished work frees a place


# -- run_grading ----------------------------------------------------------------------


def test_run_twice_grades_once(candidate, exercise_version, grade_calls, graded_signals):
    submission = make_submission(candidate, exercise_version)
    graded = lifecycle.run_grading(submission.pk)
    assert lifecycle.run_grading(submission.pk) is None
    assert grade_calls == ["full"] and graded_signals == [submission.pk]
    assert graded.status == Status.DONE and graded.verdict == Verdict.ACCEPTED
    assert (graded.speedup, graded.speedup_ci_low, graded.speedup_ci_high) == (40.0, 35.0, 45.0)
    assert graded.attempts == 1 and graded.report["hardware"] == "cpu" and graded.finished_at


def test_quick_check_grades_in_check_mode(candidate, exercise_version, grade_calls):
    submission = make_submission(candidate, exercise_version, purpose=Purpose.QUICK_CHECK)
    lifecycle.run_grading(submission.pk)
    assert grade_calls == ["check"]


def test_running_row_is_left_alone_until_stale(candidate, exercise_version, grade_calls):
    submission = make_submission(
        candidate, exercise_version, status=Status.RUNNING, started_at=timezone.now(), attempts=1
    )
    assert lifecycle.run_grading(submission.pk) is None and grade_calls == []
    stale = timezone.now() - timedelta(seconds=lifecycle.RECLAIM_RUNNING_AFTER_S + 1)
    Submission.objects.filter(pk=submission.pk).update(started_at=stale)
    assert lifecycle.run_grading(submission.pk).attempts == 2 and grade_calls == ["full"]


def test_platform_error_requeues_then_gives_up(candidate, exercise_version, monkeypatch, graded_signals):
    def broken(*args, **kwargs):
        raise PlatformError("sandbox.bwrap_missing", "no bwrap on this worker")

    monkeypatch.setattr(grading, "grade", broken)
    submission = make_submission(candidate, exercise_version)
    for attempt in range(1, lifecycle.MAX_ATTEMPTS):
        with pytest.raises(PlatformError):
            lifecycle.run_grading(submission.pk)
        submission.refresh_from_db()
        assert (submission.status, submission.attempts) == (Status.QUEUED, attempt)
        assert "bwrap_missing" in submission.platform_error
    closed = lifecycle.run_grading(submission.pk)
    assert closed.status == Status.DONE and closed.verdict == Verdict.INTERNAL_ERROR
    assert f"{lifecycle.MAX_ATTEMPTS} times" in closed.message and "bwrap" not in closed.message
    assert graded_signals == [submission.pk]


def test_unexpected_crash_is_internal_error_without_details(candidate, exercise_version, monkeypatch):
    monkeypatch.setattr(grading, "grade", lambda *a, **k: 1 / 0)
    submission = make_submission(candidate, exercise_version)
    closed = lifecycle.run_grading(submission.pk)
    assert closed.verdict == Verdict.INTERNAL_ERROR and "ZeroDivision" not in closed.message
    assert "ZeroDivision" in closed.platform_error


# -- sweep and GPU presence -----------------------------------------------------------------


@pytest.fixture
def no_gpu_heartbeat():
    gpu_workers.clear_gpu_heartbeat()
    yield
    gpu_workers.clear_gpu_heartbeat()


def test_sweep_requeues_lost_work_and_fails_exhausted_rows(
    candidate, exercise_version, queued, graded_signals, no_gpu_heartbeat
):
    long_ago = timezone.now() - timedelta(seconds=lifecycle.RECLAIM_RUNNING_AFTER_S + 1)
    lost_worker = make_submission(candidate, exercise_version, status=Status.RUNNING, started_at=long_ago, attempts=1)
    exhausted = make_submission(
        candidate, exercise_version, status=Status.RUNNING, started_at=long_ago, attempts=lifecycle.MAX_ATTEMPTS
    )
    lost_message = make_submission(candidate, exercise_version)
    Submission.objects.filter(pk=lost_message.pk).update(created_at=long_ago)
    fresh = make_submission(candidate, exercise_version)

    assert housekeeping.sweep_stuck_submissions() == {"requeued": 2, "failed": 1}
    assert sorted(args[0] for args, _ in queued) == sorted([lost_worker.pk, lost_message.pk])
    lost_worker.refresh_from_db()
    exhausted.refresh_from_db()
    fresh.refresh_from_db()
    assert lost_worker.status == Status.QUEUED
    assert exhausted.verdict == Verdict.INTERNAL_ERROR and graded_signals == [exhausted.pk]
    assert fresh.status == Status.QUEUED


def test_gpu_work_waits_for_a_gpu_worker(candidate, exercise_version, queued, no_gpu_heartbeat):
    exercise_version.spec = {**exercise_version.spec, "target": "gpu"}
    exercise_version.save()
    submission = make_submission(candidate, exercise_version)
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert not gpu_workers.gpu_worker_online() and gpu_workers.waiting_for_gpu(submission)
    assert housekeeping.sweep_stuck_submissions() == {"requeued": 0, "failed": 0}

    gpu_workers.record_gpu_heartbeat({"gpu": "NVIDIA H200"})
    assert cache.get(gpu_workers.GPU_HEARTBEAT_KEY)["gpu"] == "NVIDIA H200"
    assert gpu_workers.gpu_worker_online() and not gpu_workers.waiting_for_gpu(submission)
    assert housekeeping.sweep_stuck_submissions() == {"requeued": 1, "failed": 0}
    assert queued == [([submission.pk], "gpu")]


def test_clean_code_stores_browser_crlf_line_endings_as_newlines():
    from submissions.services.intake import clean_code

    assert clean_code("def transform(x):\r\n    return x\r\n") == "def transform(x):\n    return x\n"
