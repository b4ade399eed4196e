"""Issue 32: a bank file load_bank left out is listed for authors, with every reason and
the question it held, on the authoring home and on that question's page."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring import services
from questions.models import BankProblem, Kind, Question, Visibility

pytestmark = pytest.mark.django_db

PATH = "technical-foundation/why-tiles.md"


@pytest.fixture
def author(staff_author):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    return staff_author


@pytest.fixture
def held():
    """A question whose file broke: load_bank took it off the public pages and kept why."""
    question = Question.objects.create(
        slug="why-tiles",
        title="Why tiles",
        topic="Technical Foundation and Self Assessment",
        difficulty="easy",
        kind=Kind.CONCEPT,
        prompt="Why?",
        source_path=PATH,
        visibility=Visibility.ASSESSMENT,
    )
    BankProblem.objects.create(path=PATH, reason="unknown section '# Sample answers'")
    BankProblem.objects.create(path=PATH, reason="missing section '# Sample answer'")
    BankProblem.objects.create(path="technical-foundation/new-one.md", reason="missing key 'slug'")
    return question


def test_the_authoring_home_lists_each_left_out_file_with_its_reasons_and_question(client, author, held):
    client.force_login(author)
    page = client.get(reverse("authoring:index")).content.decode()
    assert "Bank files the last <code>load_bank</code> left out" in page
    assert f'<code>questions/bank/{PATH}</code> (<a href="{reverse("authoring:exercise", args=[held.slug])}">' in page
    assert "unknown section &#x27;# Sample answers&#x27;" in page and "missing key &#x27;slug&#x27;" in page


def test_the_question_page_says_its_file_was_left_out(client, author, held):
    client.force_login(author)
    page = client.get(reverse("authoring:exercise", args=[held.slug])).content.decode()
    assert f"left its file, <code>questions/bank/{PATH}</code>, out" in page
    assert "missing section &#x27;# Sample answer&#x27;" in page and "missing key" not in page


def test_nothing_is_listed_when_every_entry_loaded(client, author):
    client.force_login(author)
    assert "left out" not in client.get(reverse("authoring:index")).content.decode()
    assert services.left_out_entries() == []


def test_a_question_written_on_the_pages_has_no_file_to_leave_out(author, held):
    draft = Question.objects.create(slug="draft", title="Draft", topic=held.topic, difficulty="easy", kind=Kind.CONCEPT)
    assert services.left_out_entries(draft) == []
    assert [entry.reasons for entry in services.left_out_entries(held)] == [
        ["unknown section '# Sample answers'", "missing section '# Sample answer'"]
    ]
