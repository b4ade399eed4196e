"""Which questions a mock interview holds: a mix of kinds scaled to its length, from
the chosen topics and level, that the learner has not seen, and that this install can
grade (a GPU exercise only while a GPU worker is online)."""

import random
from dataclasses import dataclass

from questions.models import Attempt, Difficulty, ExerciseVersion, Kind, Question
from submissions import practice as coding_practice
from submissions.services.gpu_workers import gpu_worker_online

from .models import Length, MockItem

#: How many questions of each kind a length holds, in the order they are asked.
COMPOSITION = {
    Length.SHORT: ((Kind.CONCEPT, 1), (Kind.NUMERIC, 1), (Kind.CODING, 1)),
    Length.MEDIUM: ((Kind.CONCEPT, 2), (Kind.NUMERIC, 2), (Kind.CODING, 1)),
    Length.LONG: ((Kind.CONCEPT, 2), (Kind.NUMERIC, 2), (Kind.CODING, 2)),
}

#: The levels offered: any, or one of the bank's difficulties.
DIFFICULTY_CHOICES = [("", "Any level"), *Difficulty.choices]


class NothingToDraw(ValueError):
    """No live public question matches the choices; the message says so."""


@dataclass(frozen=True)
class Drawn:
    question: Question
    exercise_version: ExerciseVersion | None
    seen_before: bool


@dataclass(frozen=True)
class Draw:
    questions: list  # of Drawn, in the order they are asked
    note: str  # why seen questions were drawn, or fewer than the length holds; empty when neither


def bank_topics():
    """The topics of the live public bank, by name."""
    return sorted(set(Question.objects.public().live().values_list("topic", flat=True)))


def seen_question_ids(user):
    """Questions the learner has practised (answers, submissions) or met in an earlier mock interview."""
    answered = Attempt.objects.filter(user=user).values_list("question_id", flat=True)
    met = MockItem.objects.filter(interview__user=user).values_list("question_id", flat=True)
    return set(answered) | set(coding_practice.practised_question_ids(user)) | set(met)


def gradable_exercises(questions):
    """{question id: current ExerciseVersion} for the coding questions this install can grade now."""
    gpu_online = gpu_worker_online()
    current = {}
    for version in ExerciseVersion.objects.filter(question__in=questions).order_by("question_id", "-number"):
        current.setdefault(version.question_id, version)
    return {qid: version for qid, version in current.items() if version.target != "gpu" or gpu_online}


def draw(user, minutes, topics=(), difficulty="", rng=random):
    """The questions of a new mock interview (Draw). Unseen questions first; where a kind's
    unseen pool is exhausted, seen ones fill in with a note; a kind with no question at all
    is left out, also noted. NothingToDraw when no question matches at all."""
    pool = Question.objects.public().live()
    if topics:
        pool = pool.filter(topic__in=list(topics))
    if difficulty:
        pool = pool.filter(difficulty=difficulty)
    pool = list(pool)
    exercises = gradable_exercises([q for q in pool if q.kind == Kind.CODING])
    pool = [q for q in pool if q.kind != Kind.CODING or q.pk in exercises]
    seen = seen_question_ids(user)
    drawn, notes = [], []
    for kind, wanted in COMPOSITION[Length(minutes)]:
        of_kind = [q for q in pool if q.kind == kind]
        unseen = [q for q in of_kind if q.pk not in seen]
        chosen = rng.sample(unseen, min(wanted, len(unseen)))
        refill = [q for q in of_kind if q.pk in seen]
        extra = rng.sample(refill, min(wanted - len(chosen), len(refill)))
        label = Kind(kind).label.lower()
        if extra:
            notes.append(f"You have seen every matching {label} question: {len(extra)} seen before drawn again.")
        if len(chosen) + len(extra) < wanted:
            notes.append(f"Only {len(chosen) + len(extra)} of {wanted} {label} questions match your choices.")
        drawn += [Drawn(q, exercises.get(q.pk), False) for q in chosen]
        drawn += [Drawn(q, exercises.get(q.pk), True) for q in extra]
    if not drawn:
        raise NothingToDraw("No question matches those topics and level: choose more topics or any level.")
    return Draw(questions=drawn, note=" ".join(notes))
