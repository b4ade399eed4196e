"""What the question pages and the loader need from the grader, which sits above
this app (it imports questions.models). The grader registers it here in its
AppConfig.ready, so nothing in questions imports grader."""
from dataclasses import dataclass
from typing import Callable

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class CodingPractice:
    """How coding practice (graded submissions) is counted and listed."""

    #: () -> an aggregate over a Question queryset: distinct users who practised it.
    users_annotation: Callable
    #: (user) -> ids of the questions the user practised.
    question_ids: Callable
    #: (user, limit) -> the user's latest practice submissions, newest first.
    recent: Callable


_coding_practice = None
_exercise_validator = None


def register_coding_practice(practice):
    global _coding_practice
    _coding_practice = practice


def coding_practice():
    if _coding_practice is None:
        raise ImproperlyConfigured(
            "No coding practice is registered: the grader app registers it in GraderConfig.ready; "
            "is 'grader' in INSTALLED_APPS?"
        )
    return _coding_practice


def register_exercise_validator(validate):
    """`validate(spec, files)` grades an exercise's model solution against its
    reference and returns an object with `ok`, `message` and `report`."""
    global _exercise_validator
    _exercise_validator = validate


def exercise_validator():
    """The registered validator, or None when no grader is installed."""
    return _exercise_validator
