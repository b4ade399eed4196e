"""Tags are searchable as "#tag" and clickable; a filter value no question has is
left out and said so, never offered as "bogus (0)"."""

import pytest
from django.urls import reverse

BROWSE = reverse("questions:browse")


def titles(response):
    return sorted(question.title for question in response.context["browse"].questions)


@pytest.mark.django_db
def test_hash_tag_search_matches_the_tag_only(client, loaded_bank):
    assert titles(client.get(BROWSE, {"q": "#numpy"})) == ["Square a vector"]
    assert titles(client.get(BROWSE, {"q": "#NumPy"})) == ["Square a vector"]
    assert titles(client.get(BROWSE, {"q": "#hash"})) == []  # a tag is matched whole: #hash is not #hashing
    assert titles(client.get(BROWSE, {"q": "#hashing"})) == ["Amortised cost of a doubling hash table"]


@pytest.mark.django_db
def test_tags_link_to_their_search(client, loaded_bank):
    html = client.get(BROWSE).content.decode()
    assert f'href="{BROWSE}?q=%23numpy"' in html and ">#numpy</a>" in html
    page = client.get(loaded_bank["coding"].get_absolute_url()).content.decode()
    assert f'href="{BROWSE}?q=%23numpy"' in page


@pytest.mark.django_db
def test_a_bogus_filter_value_is_ignored_and_said_so(client, loaded_bank):
    response = client.get(BROWSE, {"difficulty": "bogus", "topic": "Nowhere"})
    html = response.content.decode()
    assert len(response.context["browse"].questions) == 3  # nothing filtered out
    assert "bogus (0)" not in html and "Nowhere (0)" not in html
    assert response.context["browse"].ignored == ["Nowhere", "bogus"]
    assert "so those filters were left out" in html


@pytest.mark.django_db
def test_a_real_value_with_no_match_given_the_others_still_shows_zero(client, loaded_bank):
    response = client.get(BROWSE, {"difficulty": "medium", "kind": "coding"})
    assert titles(response) == [] and not response.context["browse"].ignored
    assert 'option value="coding" selected>Coding (0)' in response.content.decode()
