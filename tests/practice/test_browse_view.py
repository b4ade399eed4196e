import pytest
from django.urls import reverse

from questions.models import Attempt, Question
from submissions.models import Purpose, Submission

BROWSE = reverse("questions:browse")


def titles(response):
    return [question.title for question in response.context["browse"].questions]


def facet(response, name):
    facets = {f.name: f for f in response.context["browse"].facets}
    return {option.value: option.count for option in facets[name].options}


@pytest.mark.django_db
def test_anonymous_sees_all_live_questions_with_badges(client, loaded_bank):
    Question.objects.filter(slug="gib-in-bytes").update(retired_at="2026-01-01T00:00:00Z")
    response = client.get(BROWSE)
    assert response.status_code == 200
    assert sorted(titles(response)) == ["Amortised cost of a doubling hash table", "Square a vector"]
    html = response.content.decode()
    assert '<span class="badge badge-medium">Medium</span>' in html
    assert "#hashing" in html
    assert "Bytes in 4 GiB" not in html


@pytest.mark.django_db
def test_filters_by_facets_and_counts_each_facet(client, loaded_bank):
    response = client.get(BROWSE, {"difficulty": "easy"})
    assert sorted(titles(response)) == ["Bytes in 4 GiB", "Square a vector"]
    assert facet(response, "kind") == {"numeric": 1, "coding": 1}
    assert facet(response, "difficulty") == {"easy": 2, "medium": 1}  # a facet's counts ignore its own filter
    assert 'option value="easy" selected>Easy (2)' in response.content.decode()

    response = client.get(BROWSE, {"difficulty": "easy", "kind": "coding"})
    assert titles(response) == ["Square a vector"]
    response = client.get(BROWSE, {"topic": "Performance Cost Optimization & Resource Efficiency"})
    assert titles(response) == ["Square a vector"]


@pytest.mark.django_db
def test_free_text_search_covers_title_prompt_and_tags(client, loaded_bank):
    assert titles(client.get(BROWSE, {"q": "doubling"})) == ["Amortised cost of a doubling hash table"]
    assert titles(client.get(BROWSE, {"q": "bytes are in"})) == ["Bytes in 4 GiB"]
    assert titles(client.get(BROWSE, {"q": "numpy"})) == ["Square a vector"]


@pytest.mark.django_db
def test_empty_state(client, loaded_bank):
    response = client.get(BROWSE, {"q": "quantum teleportation"})
    assert titles(response) == []
    html = response.content.decode()
    assert 'class="empty"' in html and "No questions match" in html
    assert "Show all questions" in html


@pytest.mark.django_db
def test_practiced_counts_distinct_users(client, loaded_bank, candidate, outsider, staff_author):
    concept, coding = loaded_bank["concept"], loaded_bank["coding"]
    Attempt.objects.create(user=candidate, question=concept)
    Attempt.objects.create(user=candidate, question=concept)
    Attempt.objects.create(user=outsider, question=concept)
    version = coding.current_exercise()
    Submission.objects.create(user=candidate, exercise=version, code="x")
    Submission.objects.create(user=candidate, exercise=version, code="y")
    Submission.objects.create(user=staff_author, exercise=version, code="z", purpose=Purpose.VALIDATION)

    response = client.get(BROWSE)
    practiced = {q.slug: q.practiced for q in response.context["browse"].questions}
    assert practiced == {"amortised-doubling": 2, "gib-in-bytes": 0, "square-values": 1}
    assert "2 practiced" in response.content.decode()
