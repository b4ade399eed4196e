"""The list of questions with how many people practised each: the bank's listing
(questions.services.browsing) paged, with practice counts from attempts and submissions."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count

from questions.models import Kind, Question
from questions.services.browsing import cached_listing
from submissions import practice as coding_practice

BROWSE_PAGE_SIZE = 20
PRACTICE_COUNTS_CACHE_S = 60  # "N practiced" on a page of the list may be this old


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


def with_practice_counts(questions):
    """Annotate `practiced`: distinct users who practised each question (an
    Attempt, or for coding a practice submission on any of its exercise versions)."""
    return questions.annotate(
        attempt_users=Count("attempts__user", distinct=True),
        submission_users=coding_practice.users_annotation(),
    )


def practiced_count(question):
    return question.submission_users if question.kind == Kind.CODING else question.attempt_users


def _page_questions(ids):
    """The questions of one page, in the listing's order, each with `practiced` (counted now, not cached)."""
    if not ids:
        return []
    unused_text = ("prompt", "sample_answer", "explanation", "hints", "rubric", "extra")
    rows = with_practice_counts(Question.objects.filter(pk__in=ids).defer(*unused_text))
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
    cleaned, key, version, listing = cached_listing(params)
    page = Paginator(listing.ids, BROWSE_PAGE_SIZE).get_page(params.get("page"))
    page_key = f"{key}:page-{page.number}"
    questions = cache.get(page_key)
    if questions is None:
        questions = _page_questions(list(page.object_list))
        cache.set(page_key, questions, PRACTICE_COUNTS_CACHE_S)
    page.object_list = questions
    kept = {name: value for name, value in cleaned.items() if value and value not in listing.ignored}
    return Browse(
        page=page,
        facets=listing.facets,
        query=listing.query,
        order=listing.order,
        filtered=listing.filtered,
        ignored=listing.ignored,
        querystring=urlencode(kept),
        bank_version=version,
        cache_key=key,
    )
