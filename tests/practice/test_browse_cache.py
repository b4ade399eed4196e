"""The list of questions at the bank's size: pages of BROWSE_PAGE_SIZE, and what is cached
under the bank's version shows a change to the bank on the next request, never one
person's page to another."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from practice import browse
from questions import bank_version
from questions.models import Attempt, Draft, Question

BROWSE = reverse("questions:browse")
TOPIC = "Algorithmic Complexity & Code-Level Optimization"
PAGE = browse.BROWSE_PAGE_SIZE


def titles(response):
    return [question.title for question in response.context["browse"].questions]


@pytest.fixture
def many(db):
    """45 easy concepts and one hard numeric; titles sort by number."""
    for number in range(45):
        Question.objects.create(
            slug=f"concept-{number:02d}",
            title=f"Concept {number:02d}",
            topic=TOPIC,
            difficulty="easy",
            kind="concept",
            tags=["caches"],
            prompt="Why?",
        )
    return Question.objects.create(
        slug="numeric-hard",
        title="Numeric hard",
        topic=TOPIC,
        difficulty="hard",
        kind="numeric",
        prompt="How many?",
        answer_value=1.0,
        answer_unit="",
        tolerance=0.01,
    )


def test_the_list_is_paginated_and_says_how_many_match(client, many):
    first = client.get(BROWSE)
    assert titles(first) == [f"Concept {n:02d}" for n in range(PAGE)]
    html = first.content.decode()
    assert "46 questions; 1 to 20 below." in html
    assert 'rel="next" href="?page=2"' in html and 'rel="prev"' not in html
    assert "Page 1 of 3" in html

    last = client.get(BROWSE, {"page": 3})
    assert titles(last) == [f"Concept {n:02d}" for n in range(40, 45)] + ["Numeric hard"]
    assert 'rel="prev" href="?page=2"' in last.content.decode() and 'rel="next"' not in last.content.decode()
    # Past the end or not a number: the nearest real page, not an error.
    assert titles(client.get(BROWSE, {"page": 99})) == titles(last)
    assert titles(client.get(BROWSE, {"page": "x"})) == titles(first)


def test_page_links_keep_the_filters_and_the_order(client, many):
    response = client.get(BROWSE, {"kind": "concept", "q": "Why", "order": "start"})
    html = response.content.decode()
    assert "45 questions match; 1 to 20 below." in html
    assert 'href="?q=Why&amp;kind=concept&amp;order=start&amp;page=2"' in html
    second = client.get(BROWSE, {"kind": "concept", "q": "Why", "order": "start", "page": 2})
    assert titles(second) == [f"Concept {n:02d}" for n in range(PAGE, 2 * PAGE)]


def test_a_filtered_list_of_one_page_has_no_page_links(client, many):
    html = client.get(BROWSE, {"kind": "numeric"}).content.decode()
    assert "1 question matches." in html
    assert "Page 1 of" not in html


def test_a_changed_question_shows_on_the_next_request(client, many):
    assert "Concept 00" in client.get(BROWSE).content.decode()  # cached now
    question = Question.objects.get(slug="concept-00")
    question.title = "Concept 00, reworded"
    question.tags = ["tlb"]
    question.save()
    html = client.get(BROWSE).content.decode()
    assert "Concept 00, reworded" in html and "#tlb" in html
    assert ">Concept 00<" not in html
    detail = client.get(question.get_absolute_url()).content.decode()
    assert "Concept 00, reworded" in detail and "#tlb" in detail


def test_an_edit_stamped_earlier_than_the_newest_row_still_shows(client, many, monkeypatch):
    """A second web host whose clock runs 10 s behind saves an edit: its `updated_at` is
    earlier than the newest row's, so the newest `updated_at` did not move and the pages
    cached under the old version were served on (for a day, the cache's timeout)."""
    monkeypatch.setattr(bank_version, "VERSION_MEMO_S", 0.0)  # as if read by another process
    Question.objects.filter(slug="concept-01").update(updated_at=timezone.now() + timedelta(seconds=10))
    assert "Concept 00" in client.get(BROWSE).content.decode()  # cached now
    behind = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: behind)
    question = Question.objects.get(slug="concept-00")
    question.title = "Concept 00, from a slow clock"
    question.save()
    assert "Concept 00, from a slow clock" in client.get(BROWSE).content.decode()


def test_a_new_and_a_deleted_question_show_on_the_next_request(client, many):
    assert client.get(BROWSE, {"kind": "numeric"}).context["browse"].total == 1
    Question.objects.create(
        slug="numeric-easy",
        title="Numeric easy",
        topic=TOPIC,
        difficulty="easy",
        kind="numeric",
        prompt="How many?",
        answer_value=2.0,
        answer_unit="",
        tolerance=0.01,
    )
    assert titles(client.get(BROWSE, {"kind": "numeric"})) == ["Numeric easy", "Numeric hard"]
    Question.objects.get(slug="numeric-hard").delete()
    assert titles(client.get(BROWSE, {"kind": "numeric"})) == ["Numeric easy"]


def test_a_queryset_update_without_signals_shows_once_the_remembered_version_lapses(client, many, monkeypatch):
    monkeypatch.setattr(bank_version, "VERSION_MEMO_S", 0.0)  # every request reads the tables
    assert "Numeric hard" in client.get(BROWSE, {"page": 3}).content.decode()
    Question.objects.filter(slug="numeric-hard").update(retired_at=timezone.now())  # as load_bank retires
    html = client.get(BROWSE, {"page": 3}).content.decode()
    assert "Numeric hard" not in html and "45 questions" in html


def test_load_bank_retiring_a_question_shows_at_once(client, small_bank, load):
    load(small_bank.root)
    assert "Bytes in 4 GiB" in client.get(BROWSE).content.decode()
    (small_bank.root / "technical-foundation" / "gib-in-bytes.md").unlink()
    load(small_bank.root)  # retires it with a queryset update
    assert "Bytes in 4 GiB" not in client.get(BROWSE).content.decode()


def test_the_bank_version_changes_with_the_bank_and_not_with_practice(many, candidate):
    before = bank_version.bank_version()
    Attempt.objects.create(user=candidate, question=many, confidence=3, score=1.0)
    assert bank_version.bank_version() == before
    many.title = "Numeric, harder"
    many.save()
    assert bank_version.bank_version() != before


def signed_in_as(html, username):
    return f"Your profile: </span>{username}</a>" in html


def test_signed_in_bits_are_never_served_to_someone_else(client, many, candidate, outsider):
    question = Question.objects.get(slug="concept-00")
    Draft.objects.create(user=candidate, question=question, text="my private draft about caches")
    client.force_login(candidate)
    assert signed_in_as(client.get(BROWSE).content.decode(), "candidate")
    assert "my private draft about caches" in client.get(question.get_absolute_url()).content.decode()

    client.force_login(outsider)
    for path in (BROWSE, question.get_absolute_url(), reverse("home"), reverse("leaderboards:index")):
        html = client.get(path).content.decode()
        assert not signed_in_as(html, "candidate") and "my private draft" not in html, path
        assert signed_in_as(html, "outsider"), path
    client.logout()
    html = client.get(question.get_absolute_url()).content.decode()
    assert not signed_in_as(html, "outsider") and "my private draft" not in html and "Sign in" in html


def test_practice_counts_are_counted_on_a_cache_miss_and_kept_a_minute(client, many, candidate, outsider):
    assert "0 practiced" in client.get(BROWSE, {"kind": "numeric"}).content.decode()
    Attempt.objects.create(user=candidate, question=many, confidence=3, score=1.0)
    # Not a change to the bank: the page's counts stay as counted for PRACTICE_COUNTS_CACHE_S.
    assert "0 practiced" in client.get(BROWSE, {"kind": "numeric"}).content.decode()
    many.save()  # a new bank version counts afresh
    assert "1 practiced" in client.get(BROWSE, {"kind": "numeric"}).content.decode()
