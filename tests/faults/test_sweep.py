"""The periodic sweep on its own (any database): rows stuck in queued or running
are requeued while they have attempts left, closed with an honest message when
they have none, and left alone while they are young."""

from datetime import timedelta

import pytest
from django.utils import timezone

from questions.models import ExerciseVersion, Question
from submissions.models import Submission
from submissions.services import housekeeping, lifecycle, queueing
from submissions.states import Status, Verdict
from tests.hostile.conftest import tiny_exercise


@pytest.fixture
def version(db):
    spec, files = tiny_exercise()
    question = Question.objects.create(
        slug="sweep-tiny",
        title="Sweep",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind="coding",
        prompt="Compute it.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=spec,
        reference_code=files["reference.py"],
        starter_code="",
        inputs_code=files["inputs.py"],
        solution_code=files["solution.py"],
        content_hash="sweep",
    )


@pytest.fixture
def enqueued(monkeypatch):
    """What the sweep hands to the broker (the publishing itself is covered by the fault tests)."""
    sent = []
    monkeypatch.setattr(queueing, "enqueue", lambda submission: sent.append(submission.pk))
    return sent


def stuck(user, version, status, attempts, age_s):
    past = timezone.now() - timedelta(seconds=age_s)
    row = Submission.objects.create(
        user=user, exercise=version, code="def transform(x):\n    return x\n", status=status, attempts=attempts
    )
    Submission.objects.filter(pk=row.pk).update(created_at=past, started_at=past if status == Status.RUNNING else None)
    return row


def test_sweep_requeues_lost_rows_and_fails_exhausted_ones(candidate, version, enqueued):
    lost_message = stuck(candidate, version, Status.QUEUED, 0, housekeeping.REQUEUE_QUEUED_AFTER_S + 5)
    lost_worker = stuck(candidate, version, Status.RUNNING, 1, lifecycle.RECLAIM_RUNNING_AFTER_S + 5)
    exhausted = stuck(candidate, version, Status.RUNNING, lifecycle.MAX_ATTEMPTS, lifecycle.RECLAIM_RUNNING_AFTER_S + 5)
    young_queued = stuck(candidate, version, Status.QUEUED, 0, 5)
    young_running = stuck(candidate, version, Status.RUNNING, 1, 5)

    assert housekeeping.sweep_stuck_submissions() == {"requeued": 2, "failed": 1}

    assert sorted(enqueued) == sorted([lost_message.pk, lost_worker.pk])
    lost_worker.refresh_from_db()
    assert lost_worker.status == Status.QUEUED and lost_worker.platform_error == "the grading worker stopped mid-run"
    exhausted.refresh_from_db()
    assert exhausted.status == Status.DONE and exhausted.verdict == Verdict.INTERNAL_ERROR
    assert f"{lifecycle.MAX_ATTEMPTS} times" in exhausted.message and "not your code" in exhausted.message
    for young in (young_queued, young_running):
        before = young.status
        young.refresh_from_db()
        assert young.status == before


def test_sweep_is_idempotent(candidate, version, enqueued):
    stuck(candidate, version, Status.RUNNING, lifecycle.MAX_ATTEMPTS, lifecycle.RECLAIM_RUNNING_AFTER_S + 5)
    assert housekeeping.sweep_stuck_submissions() == {"requeued": 0, "failed": 1}
    assert housekeeping.sweep_stuck_submissions() == {"requeued": 0, "failed": 0}
