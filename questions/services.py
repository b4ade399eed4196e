"""What the question pages do: browsing with facets, drafts, attempts and the
figures on the progress page. Views call these and only render."""
import hashlib
import json
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Count, Q

from . import hooks
from .bank_version import bank_version
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
class Listing:
    """What a browse request takes from the bank alone: the matching question ids in order and
    the facets. It changes only with the bank, so it is cached under the bank's version."""

    ids: list
    facets: list
    query: str
    order: str
    filtered: bool
    ignored: list  # filter values no question has, so not applied


@dataclass(frozen=True)
class Browse:
    page: Page  # the questions on this page, each with `practiced`
    facets: list
    query: str
    order: str
    filtered: bool
    ignored: list
    querystring: str  # the filters and order, without the page, for the page links
    bank_version: str
    cache_key: str  # the bank's version and the cleaned params: what the rendered list depends on besides the page

    @property
    def questions(self):
        return self.page.object_list

    @property
    def total(self):
        return self.page.paginator.count

    @property
    def cards_key(self):
        """What the rendered cards depend on besides the bank: each one's question and practice count."""
        return ",".join(f"{question.pk}:{question.practiced}" for question in self.questions)


FACETS = (("topic", "Topic"), ("difficulty", "Difficulty"), ("kind", "Kind"))
FACET_LABELS = {"difficulty": dict(Difficulty.choices), "kind": dict(Kind.choices)}
BROWSE_PAGE_SIZE = 20
LISTING_CACHE_S = 24 * 3600  # keyed by the bank's version: a change to the bank is a new key, not a stale one
PRACTICE_COUNTS_CACHE_S = 60  # "N practiced" on a page of the list may be this old
START_ORDER = "start"
ORDERS = (("", "By topic"), (START_ORDER, "Start here: a beginner's order"))

# A beginner's order through the bank: topics from the foundations on, within a topic the CPU
# material before the GPU material, each easy to hard, and at each difficulty a concept before
# a numeric estimate before a coding exercise. Every question's place follows from its front
# matter (topic, tags, difficulty, kind); nothing lists questions by hand.
BEGINNER_TOPICS = (
    "Technical Foundation and Self Assessment",
    "Algorithmic Complexity & Code-Level Optimization",
    "Performance Cost Optimization & Resource Efficiency",
)
DIFFICULTY_ORDER = (Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD)
KIND_ORDER = (Kind.CONCEPT, Kind.NUMERIC, Kind.CODING)
GPU_TAGS = ("gpu", "cuda", "cupy")


def is_gpu_material(tags):
    """A question about GPUs, by its tags: gpu, cuda or cupy, or one that starts with gpu or cuda (gpu-kernels, cuda-streams)."""
    return any(tag in GPU_TAGS or tag.startswith(("gpu", "cuda-")) for tag in tags or ())


def beginner_rank(topic, tags, difficulty, kind, title):
    """Sort key of the beginner's order; a topic not in BEGINNER_TOPICS comes after them, by name."""
    topic_rank = BEGINNER_TOPICS.index(topic) if topic in BEGINNER_TOPICS else len(BEGINNER_TOPICS)
    return (
        topic_rank, topic, is_gpu_material(tags),
        DIFFICULTY_ORDER.index(difficulty) if difficulty in DIFFICULTY_ORDER else len(DIFFICULTY_ORDER),
        KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER),
        title.lower(),
    )


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


def browse_params(params):
    """The GET params browsing reads, cleaned: q, topic, difficulty, kind and order (not the page)."""
    cleaned = {"q": " ".join((params.get("q") or "").split())}
    cleaned.update({name: params.get(name) or "" for name, _ in FACETS})
    cleaned["order"] = START_ORDER if params.get("order") == START_ORDER else ""
    return cleaned


def _listing(cleaned):
    """The ids of the live questions matching the filters, in the chosen order, with a count for
    every facet value given the other filters."""
    query = cleaned["q"]
    public = Question.objects.public().live()
    base = _text_search(public, query)
    chosen = {name: cleaned[name] for name, _ in FACETS}
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

    matching = base.filter(**{k: v for k, v in chosen.items() if v})
    if cleaned["order"] == START_ORDER:
        rows = matching.values_list("id", "topic", "tags", "difficulty", "kind", "title")
        ids = [row[0] for row in sorted(rows, key=lambda row: beginner_rank(*row[1:]))]
    else:
        ids = list(matching.values_list("id", flat=True))
    return Listing(ids=ids, facets=facets, query=query, order=cleaned["order"],
                   filtered=bool(query or any(chosen.values())), ignored=ignored)


def _page_questions(ids):
    """The questions of one page, in the listing's order, each with `practiced` (counted now, not cached)."""
    if not ids:
        return []
    rows = with_practice_counts(Question.objects.filter(pk__in=ids).defer("prompt", "sample_answer", "explanation", "hints", "rubric", "extra"))
    by_id = {question.pk: question for question in rows}
    questions = [by_id[pk] for pk in ids if pk in by_id]
    for question in questions:
        question.practiced = practiced_count(question)
    return questions


def browse_questions(params):
    """Live questions filtered by the GET params topic/difficulty/kind/q, in the order `order`
    asks for (by topic, or the beginner's order), BROWSE_PAGE_SIZE a page (`page`), with a
    count for every facet value given the other filters. The listing is cached under the
    bank's version; a page's practice counts (how many people practised each question, the
    same for everyone) for PRACTICE_COUNTS_CACHE_S on top."""
    cleaned = browse_params(params)
    version = bank_version()
    key = "browse-listing:%s:%s" % (version, hashlib.sha1(json.dumps(cleaned, sort_keys=True).encode()).hexdigest())
    listing = cache.get(key)
    if listing is None:
        listing = _listing(cleaned)
        cache.set(key, listing, LISTING_CACHE_S)
    page = Paginator(listing.ids, BROWSE_PAGE_SIZE).get_page(params.get("page"))
    page_key = f"{key}:page-{page.number}"
    questions = cache.get(page_key)
    if questions is None:
        questions = _page_questions(list(page.object_list))
        cache.set(page_key, questions, PRACTICE_COUNTS_CACHE_S)
    page.object_list = questions
    kept = {name: value for name, value in cleaned.items() if value and value not in listing.ignored}
    return Browse(
        page=page, facets=listing.facets, query=listing.query, order=listing.order, filtered=listing.filtered,
        ignored=listing.ignored, querystring=urlencode(kept), bank_version=version, cache_key=key,
    )


_MISSING = "missing"


def public_question(slug):
    """The public question with this slug (retired ones too: their page says so) and, for a
    coding exercise, its current version as `question.exercise`; None when there is none.
    Cached under the bank's version, so a question page costs no query for the bank."""
    key = "public-question:%s:%s" % (bank_version(), hashlib.sha1(slug.encode()).hexdigest())
    question = cache.get(key)
    if question is None:
        question = Question.objects.public().filter(slug=slug).first()
        if question is not None:
            question.exercise = question.current_exercise() if question.kind == Kind.CODING else None
        cache.set(key, question if question is not None else _MISSING, LISTING_CACHE_S)
    return None if question == _MISSING else question


@dataclass(frozen=True)
class BankSummary:
    counts: dict  # live public questions by kind
    first_question: Question | None  # the first step of the beginner's order (slug and title only)


def bank_summary():
    """What the home page says about the bank, cached under the bank's version."""
    key = f"bank-summary:{bank_version()}"
    summary = cache.get(key)
    if summary is None:
        live = Question.objects.public().live()
        counts = dict(live.values_list("kind").annotate(n=Count("id")).order_by())
        rows = live.values_list("id", "topic", "tags", "difficulty", "kind", "title")
        first_id = min(rows, key=lambda row: beginner_rank(*row[1:]))[0] if rows else None
        summary = BankSummary(
            counts={kind: counts.get(kind, 0) for kind in Kind.values},
            first_question=Question.objects.only("id", "slug", "title").get(pk=first_id) if first_id else None,
        )
        cache.set(key, summary, LISTING_CACHE_S)
    return summary


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
    if not user.is_authenticated or question.kind != Kind.CODING or hooks.in_sitting_with(user, question):
        return False
    return question.pk in set(hooks.coding_practice().accepted_question_ids(user))


def editorial_for(user, question):
    """The exercise's Editorial when `user` has earned it, else None. `question` must carry
    its current version as `question.exercise` (public_question sets it) or have one."""
    if not has_earned_editorial(user, question):
        return None
    exercise = getattr(question, "exercise", None) or question.current_exercise()
    return Editorial(sample_answer=question.sample_answer, solution_code=exercise.solution_code if exercise else "")
