"""The tiny exercise of tests/grader/conftest.py as database rows, and a stand-in for the
queue. Tests elsewhere import these fixtures from here."""

import pytest

from questions.models import ExerciseVersion, Kind, Question
from tests.grader.conftest import (  # noqa: F401  (fixtures and the exercise's parts)
    BUSY_PROOF_SIZES,
    ENDLESS,
    MEMORY_HOG,
    RAISES,
    TINY_FILES,
    TINY_SPEC,
    WRONG_ANSWER,
    busy_proof_tiny_exercise,
    needs_harness,
    tiny_exercise,
)


@pytest.fixture
def exercise_version(db):
    question = Question.objects.create(
        slug="tiny-scale",
        title="Scale an array",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Return `x * 3 + 1`.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=dict(TINY_SPEC),
        reference_code=TINY_FILES["reference.py"],
        starter_code=TINY_FILES["starter.py"],
        inputs_code=TINY_FILES["inputs.py"],
        solution_code=TINY_FILES["solution.py"],
        content_hash="tiny",
    )


@pytest.fixture
def queued(monkeypatch):
    """Records apply_async calls (args, queue) instead of talking to a broker; the
    fair-ordering priority of each call is kept in `queued.priorities`."""
    from submissions import tasks

    class Calls(list):
        """A list that can also carry the priorities."""

    calls = Calls()
    calls.priorities = []

    def record(args, queue, priority):
        calls.append((args, queue))
        calls.priorities.append(priority)

    monkeypatch.setattr(tasks.grade_submission, "apply_async", record)
    return calls
