"""Answering a concept question (commit, reveal, tick the rubric) or a numeric one."""

from django.db import transaction

from ..models import Attempt, Draft
from ..numeric import check_numeric

MAX_ANSWER_CHARS = 20_000


class UnstorableAnswer(ValueError):
    """Answer or draft text that cannot be kept; the message says why."""


class AnswerTooLong(UnstorableAnswer):
    pass


def checked_length(text, limit=MAX_ANSWER_CHARS):
    text = text or ""
    if len(text) > limit:
        raise AnswerTooLong(f"Answers are limited to {limit:,} characters.")
    if "\x00" in text:
        # PostgreSQL text cannot hold NUL (SQLite can): refused alike on both.
        raise UnstorableAnswer("Answers cannot contain NUL characters.")
    return text


@transaction.atomic
def reveal_concept_answer(user, question, answer_text, confidence):
    """The candidate commits to an answer and says how sure they are, before the
    sample answer is shown: record the attempt (unscored until they tick the
    rubric) and drop the draft."""
    attempt = Attempt.objects.create(
        user=user, question=question, answer_text=checked_length(answer_text), confidence=confidence
    )
    Draft.objects.filter(user=user, question=question).delete()
    return attempt


def score_concept_attempt(attempt, checked_points):
    """Score = rubric points ticked / rubric points. `checked_points` are indexes.
    The confidence was given before the reveal and stays as it was."""
    total = len(attempt.question.rubric)
    checked = sorted({index for index in checked_points if 0 <= index < total})
    attempt.rubric_checked = checked
    attempt.score = len(checked) / total if total else 0.0
    attempt.save(update_fields=["rubric_checked", "score"])
    return attempt


def answer_numeric(user, question, raw, confidence):
    """Check a numeric answer. Returns (attempt, check); no attempt is recorded
    when the input cannot be compared (check.error says why)."""
    check = check_numeric(raw, answer=question.answer_value, unit=question.answer_unit, tolerance=question.tolerance)
    if not check.ok:
        return None, check
    attempt = Attempt.objects.create(
        user=user,
        question=question,
        numeric_input=raw.strip()[:100],
        numeric_correct=check.correct,
        confidence=confidence,
        score=1.0 if check.correct else 0.0,
    )
    return attempt, check
