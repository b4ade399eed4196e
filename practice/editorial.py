"""The editorial of a coding exercise: earned by an accepted practice submission."""

from dataclasses import dataclass

from questions.models import Kind
from submissions import practice as coding_practice
from teams.services import integrity


@dataclass(frozen=True)
class Editorial:
    """What a learner earns by solving a coding exercise: the written sample answer (the
    reasoning) and the model solution's code."""

    sample_answer: str
    solution_code: str


def has_earned_editorial(user, question):
    """Whether `user` has an accepted practice submission for this coding exercise (any
    version). Assessment sittings never count, so a candidate cannot earn it mid-sitting, and
    while the user sits an assessment that holds the exercise it stays hidden."""
    if not user.is_authenticated or question.kind != Kind.CODING or _in_sitting_with(user, question):
        return False
    return question.pk in set(coding_practice.accepted_question_ids(user))


def editorial_for(user, question):
    """The exercise's Editorial when `user` has earned it, else None. `question` must carry
    its current version as `question.exercise` (public_question sets it) or have one."""
    if not has_earned_editorial(user, question):
        return None
    exercise = getattr(question, "exercise", None) or question.current_exercise()
    return Editorial(sample_answer=question.sample_answer, solution_code=exercise.solution_code if exercise else "")


def _in_sitting_with(user, question):
    """Whether `user` is sitting an assessment that holds `question` right now."""
    session, _item = integrity.open_sitting_with_question(user, question.slug)
    return session is not None
