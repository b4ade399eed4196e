"""What the question pages do: browsing with facets, drafts, attempts and the
figures on the progress page. Views call these and only render."""
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q

from . import hooks
from .models import Attempt, Difficulty, Draft, Kind, Question
from .numeric import check_numeric

CONFIDENCE_LEVELS = (1, 2, 3, 4, 5)
MAX_ANSWER_CHARS = 20_000
RECENT_LIMIT = 20


class UnstorableAnswer(ValueError):
    """Answer or draft text that cannot be kept; the message says why."""


class AnswerTooLong(UnstorableAnswer):
    pass


# ---------------------------------------------------------------------------
# Browsing


@dataclass(frozen=True)
class FacetOption:
    value: str
    label: str
    count: int
    selected: bool


@dataclass(frozen=True)
class Facet:
    name: str
    label: str
    options: list

    @property
    def selected(self):
        return next((option for option in self.options if option.selected), None)


@dataclass(frozen=True)
class Browse:
    questions: list
    facets: list
    query: str
    filtered: bool
    ignored: list  # filter values no question has, so not applied


FACETS = (("topic", "Topic"), ("difficulty", "Difficulty"), ("kind", "Kind"))
FACET_LABELS = {"difficulty": dict(Difficulty.choices), "kind": dict(Kind.choices)}


def with_practice_counts(questions):
    """Annotate `practiced`: distinct users who practised each question (an
    Attempt, or for coding a practice submission on any of its exercise versions)."""
    return questions.annotate(
        attempt_users=Count("attempts__user", distinct=True),
        submission_users=hooks.coding_practice().users_annotation(),
    )


def practiced_count(question):
    return question.submission_users if question.kind == Kind.CODING else question.attempt_users


def _text_search(questions, query):
    """Every word must match a title, prompt or tag; "#numpy" matches the tag numpy only."""
    for word in query.split():
        if word.startswith("#") and len(word) > 1:
            # Tags are stored as a JSON list: match the quoted name, whole, in its text.
            questions = questions.filter(tags__icontains=f'"{word[1:]}"')
        else:
            questions = questions.filter(Q(title__icontains=word) | Q(prompt__icontains=word) | Q(tags__icontains=word))
    return questions


def browse_questions(params):
    """Live questions filtered by the GET params topic/difficulty/kind/q, with a
    count for every facet value given the other filters."""
    query = (params.get("q") or "").strip()
    public = Question.objects.public().live()
    base = _text_search(public, query)
    chosen = {name: params.get(name) or "" for name, _ in FACETS}
    # A value no question has (a mistyped or stale link) filters nothing and is not offered as an option.
    ignored = [value for name, value in chosen.items() if value and not public.filter(**{name: value}).exists()]
    chosen = {name: "" if value in ignored else value for name, value in chosen.items()}

    facets = []
    for name, label in FACETS:
        others = base.filter(**{other: value for other, value in chosen.items() if value and other != name})
        counts = dict(others.values_list(name).annotate(n=Count("id")).order_by())
        values = sorted(counts) if name == "topic" else [value for value in FACET_LABELS[name] if value in counts]
        if chosen[name] and chosen[name] not in values:
            values.append(chosen[name])  # a real value with no match among the other filters: shown as (0)
        labels = FACET_LABELS.get(name, {})
        options = [
            FacetOption(value=value, label=labels.get(value, value), count=counts.get(value, 0), selected=value == chosen[name])
            for value in values
        ]
        facets.append(Facet(name=name, label=label, options=options))

    questions = list(with_practice_counts(base.filter(**{k: v for k, v in chosen.items() if v})))
    for question in questions:
        question.practiced = practiced_count(question)
    return Browse(
        questions=questions, facets=facets, query=query, filtered=bool(query or any(chosen.values())), ignored=ignored
    )


# ---------------------------------------------------------------------------
# Drafts and attempts


def _checked_length(text, limit=MAX_ANSWER_CHARS):
    text = text or ""
    if len(text) > limit:
        raise AnswerTooLong(f"Answers are limited to {limit:,} characters.")
    if "\x00" in text:
        # PostgreSQL text cannot hold NUL (SQLite can): refused alike on both.
        raise UnstorableAnswer("Answers cannot contain NUL characters.")
    return text


def draft_limit(question):
    """Characters a draft may hold: a coding draft is code, as long as a submission may be."""
    return settings.SUBMISSION_MAX_BYTES if question.kind == Kind.CODING else MAX_ANSWER_CHARS


def draft_text(user, question):
    if not user.is_authenticated:
        return ""
    return Draft.objects.filter(user=user, question=question).values_list("text", flat=True).first() or ""


def save_draft(user, question, text):
    text = _checked_length(text, draft_limit(question))
    draft, _ = Draft.objects.update_or_create(user=user, question=question, defaults={"text": text})
    return draft


@transaction.atomic
def reveal_concept_answer(user, question, answer_text, confidence):
    """The candidate commits to an answer and says how sure they are, before the
    sample answer is shown: record the attempt (unscored until they tick the
    rubric) and drop the draft."""
    attempt = Attempt.objects.create(
        user=user, question=question, answer_text=_checked_length(answer_text), confidence=confidence
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


# ---------------------------------------------------------------------------
# Progress


@dataclass(frozen=True)
class CalibrationLevel:
    confidence: int
    count: int
    mean_score: float | None

    @property
    def expected_score(self):
        """What a perfectly calibrated candidate would score at this confidence."""
        return normalised_confidence(self.confidence)


@dataclass(frozen=True)
class Calibration:
    levels: list
    error: float | None  # mean |confidence_normalised - score|; None with no scored attempts
    count: int


def normalised_confidence(confidence):
    return (confidence - 1) / 4


def calibration(pairs):
    """Calibration from (confidence 1-5, score 0-1) pairs: mean score and count
    per confidence level, and the mean absolute gap between normalised confidence
    ((c-1)/4) and score."""
    pairs = [(c, s) for c, s in pairs if c in CONFIDENCE_LEVELS and s is not None]
    levels = []
    for level in CONFIDENCE_LEVELS:
        scores = [score for confidence, score in pairs if confidence == level]
        levels.append(CalibrationLevel(level, len(scores), sum(scores) / len(scores) if scores else None))
    error = sum(abs(normalised_confidence(c) - s) for c, s in pairs) / len(pairs) if pairs else None
    return Calibration(levels=levels, error=error, count=len(pairs))


def user_calibration(user):
    """Calibration over the user's first answer to each question (once it is
    scored): every later try comes after the answer was shown, so it would
    measure memory, not judgement."""
    first = {}
    attempts = Attempt.objects.filter(user=user).order_by("created_at", "pk")
    for question_id, confidence, score in attempts.values_list("question_id", "confidence", "score"):
        first.setdefault(question_id, (confidence, score))
    return calibration(first.values())


@dataclass(frozen=True)
class TopicCoverage:
    topic: str
    practised: int
    total: int

    @property
    def percent(self):
        return round(100 * self.practised / self.total) if self.total else 0


def practised_question_ids(user):
    attempted = Attempt.objects.filter(user=user).values_list("question_id", flat=True)
    submitted = hooks.coding_practice().question_ids(user)
    return set(attempted) | set(submitted)


def coverage_by_topic(user):
    practised = practised_question_ids(user)
    totals = {}
    for question_id, topic in Question.objects.public().live().values_list("id", "topic"):
        done, total = totals.get(topic, (0, 0))
        totals[topic] = (done + (question_id in practised), total + 1)
    return [TopicCoverage(topic, done, total) for topic, (done, total) in sorted(totals.items())]


def recent_attempts(user):
    return Attempt.objects.filter(user=user, question__in=Question.objects.public()).select_related("question")[:RECENT_LIMIT]


def recent_submissions(user):
    return hooks.coding_practice().recent(user, RECENT_LIMIT)
