"""Browsing the bank: the list of live questions with facets and two orders, a public
question's page, and what the home page says about the bank. All of it is cached under
the bank's version."""
import hashlib
import json
from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, Q

from .. import hooks
from ..bank_version import bank_version
from ..models import Difficulty, Kind, Question


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
