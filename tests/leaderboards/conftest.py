"""Builders for leaderboard tests: coding questions, versions and graded submissions,
created directly as rows (no sandbox involved)."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Profile
from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Purpose, Submission
from submissions.signals import submission_graded
from submissions.states import Status, Verdict

_counter = itertools.count()
START = timezone.now() - timedelta(days=30)


@pytest.fixture
def make_exercise(db):
    def make(
        slug=None, difficulty="easy", topic="Algorithmic Complexity & Code-Level Optimization", version=1, question=None
    ):
        if question is None:
            slug = slug or f"exercise-{next(_counter)}"
            question = Question.objects.create(
                slug=slug,
                title=slug.replace("-", " ").title(),
                topic=topic,
                difficulty=difficulty,
                kind=Kind.CODING,
                prompt="Make it fast.",
            )
        return ExerciseVersion.objects.create(
            question=question,
            number=version,
            spec={"target": "cpu", "entry_point": "transform"},
            reference_code="def transform(x): return x",
            starter_code="",
            inputs_code="",
            solution_code="",
            content_hash=f"hash-{next(_counter)}",
        )

    return make


@pytest.fixture
def make_submission(db):
    """A graded submission. `minutes` sets created_at relative to a fixed start so ties are controllable.
    Each one is a program of its own unless `code` is given (a program graded several times counts
    by its middle grading). `ci` is the speedup's 95% interval, (low, high); none by default.
    The signal is sent (as the grader does) unless signal=False."""

    def make(
        user,
        exercise,
        speedup=2.0,
        memory=1000,
        hardware="cpu",
        verdict=Verdict.ACCEPTED,
        purpose=Purpose.PRACTICE,
        minutes=None,
        signal=True,
        code=None,
        ci=None,
    ):
        if code is None:
            code = f"def transform(x):\n    return x + {next(_counter)}\n"
        submission = Submission.objects.create(
            user=user,
            exercise=exercise,
            code=code,
            purpose=purpose,
            status=Status.DONE,
            verdict=verdict,
            speedup=speedup,
            peak_memory_bytes=memory,
            hardware=hardware,
            speedup_ci_low=ci[0] if ci else None,
            speedup_ci_high=ci[1] if ci else None,
        )
        created_at = START + timedelta(minutes=next(_counter) if minutes is None else minutes)
        Submission.objects.filter(pk=submission.pk).update(created_at=created_at)
        submission.created_at = created_at
        if signal:
            submission_graded.send(sender=Submission, submission=submission)
        return submission

    return make


@pytest.fixture
def public(db):
    """Opt a user in to showing `name` on leaderboards."""

    def opt_in(user, name):
        # Kept on the user too: a profile made with the account (e.g. by make_user) is cached there.
        user.profile, _ = Profile.objects.update_or_create(
            user=user, defaults={"display_name": name, "show_on_leaderboards": True}
        )
        return user

    return opt_in
