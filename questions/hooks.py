"""What the question pages need from submissions, which sit above this app (they
import questions.models). The submissions app registers it here in its
AppConfig.ready, so nothing in questions imports submissions."""
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
    #: (user) -> ids of the questions the user has an accepted practice submission for
    #: (never one made in an assessment sitting): what earns the editorial.
    accepted_question_ids: Callable


_coding_practice = None


def register_coding_practice(practice):
    global _coding_practice
    _coding_practice = practice


def coding_practice():
    if _coding_practice is None:
        raise ImproperlyConfigured(
            "No coding practice is registered: the submissions app registers it in SubmissionsConfig.ready; "
            "is 'submissions' in INSTALLED_APPS?"
        )
    return _coding_practice


#: (user, question) -> True while the user sits an assessment that holds the question.
#: teams registers it (TeamsConfig.ready); a site without teams has no sittings to guard.
_in_sitting = None


def register_sitting_check(check):
    global _in_sitting
    _in_sitting = check


def in_sitting_with(user, question):
    """Whether `user` is sitting an assessment that holds `question` right now: then the
    exercise's editorial stays hidden, whatever the user earned in practice before."""
    return _in_sitting is not None and _in_sitting(user, question)
