"""Browsing the bank: the live questions matching a search and facets in one of two
orders, a public question, and what the home page says about the bank. All of it is
cached under the bank's version. The list page itself, with practice counts, is
practice.browse's."""

import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q

from ..bank_version import bank_version
from ..models import Difficulty, Kind, Question, Track


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


FACETS = (("topic", "Topic"), ("difficulty", "Difficulty"), ("kind", "Kind"))
FACET_LABELS = {"difficulty": dict(Difficulty.choices), "kind": dict(Kind.choices)}
LISTING_CACHE_S = 24 * 3600  # keyed by the bank's version: a change to the bank is a new key, not a stale one
START_ORDER = "start"
ORDERS = (("", "By topic"), (START_ORDER, "Start here: a beginner's order"))

# A beginner's order through the bank: first the questions on the bank's tracks, in the tracks'
# order (questions/bank/tracks.yaml: the curated paths, from CPU fundamentals on); then the rest,
# topics from the foundations on, within a topic the CPU material before the GPU material, each
# easy to hard, and at each difficulty a concept before a numeric estimate before a coding
# exercise. Every question's place follows from the bank (tracks and front matter); the order
# lists no question by hand. The default order ("By topic") is topic by topic, CPU material
# before GPU material, easy to hard.
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


def _difficulty_rank(difficulty):
    return DIFFICULTY_ORDER.index(difficulty) if difficulty in DIFFICULTY_ORDER else len(DIFFICULTY_ORDER)


def beginner_rank(topic, tags, difficulty, kind, title, track_place=None):
    """Sort key of the beginner's order: a question on a track (`track_place`, its place along
    the tracks) before any other; a topic not in BEGINNER_TOPICS comes after them, by name."""
    topic_place = BEGINNER_TOPICS.index(topic) if topic in BEGINNER_TOPICS else len(BEGINNER_TOPICS)
    return (
        (0, track_place) if track_place is not None else (1, 0),
        topic_place,
        topic,
        is_gpu_material(tags),
        _difficulty_rank(difficulty),
        KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER),
        title.lower(),
    )


def topic_rank(topic, tags, difficulty, title):
    """Sort key of the default order: by topic, CPU material before GPU material, easy to hard, by title."""
    return (topic, is_gpu_material(tags), _difficulty_rank(difficulty), title.lower())


def _track_places():
    """Each question's place along the bank's tracks, in their order (slug -> 0, 1, ...); a
    question on two tracks keeps its first place."""
    places = {}
    for track in Track.objects.all():
        for slug in track.question_slugs:
            places.setdefault(slug, len(places))
    return places


def _in_beginner_order(questions):
    """The ids of `questions` in the beginner's order."""
    places = _track_places()
    rows = questions.values_list("id", "slug", "topic", "tags", "difficulty", "kind", "title")
    return [row[0] for row in sorted(rows, key=lambda row: beginner_rank(*row[2:], track_place=places.get(row[1])))]


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
            FacetOption(
                value=value, label=labels.get(value, value), count=counts.get(value, 0), selected=value == chosen[name]
            )
            for value in values
        ]
        facets.append(Facet(name=name, label=label, options=options))

    matching = base.filter(**{k: v for k, v in chosen.items() if v})
    if cleaned["order"] == START_ORDER:
        ids = _in_beginner_order(matching)
    else:
        rows = matching.values_list("id", "topic", "tags", "difficulty", "title")
        ids = [row[0] for row in sorted(rows, key=lambda row: topic_rank(*row[1:]))]
    return Listing(
        ids=ids,
        facets=facets,
        query=query,
        order=cleaned["order"],
        filtered=bool(query or any(chosen.values())),
        ignored=ignored,
    )


def cached_listing(params):
    """(cleaned params, cache key, bank version, Listing) for a browse request's GET params.
    The Listing is cached for LISTING_CACHE_S under the bank's version and the cleaned
    params, so a change to the bank is a new key, never a stale entry."""
    cleaned = browse_params(params)
    version = bank_version()
    key = "browse-listing:%s:%s" % (version, hashlib.sha1(json.dumps(cleaned, sort_keys=True).encode()).hexdigest())
    listing = cache.get(key)
    if listing is None:
        listing = _listing(cleaned)
        cache.set(key, listing, LISTING_CACHE_S)
    return cleaned, key, version, listing


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
        ordered = _in_beginner_order(live)
        first_id = ordered[0] if ordered else None
        summary = BankSummary(
            counts={kind: counts.get(kind, 0) for kind in Kind.values},
            first_question=Question.objects.only("id", "slug", "title").get(pk=first_id) if first_id else None,
        )
        cache.set(key, summary, LISTING_CACHE_S)
    return summary
