"""Concept and numeric questions written on the authoring pages: refused with every reason
(bad unit, unknown topic, a missing section) and nothing saved, or saved private, then
published and exported as load_bank reads them."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring import services, writing
from authoring.errors import AuthoringError
from authoring.models import AuthoringEvent
from questions import loader
from questions.models import Kind, Question, Visibility

pytestmark = pytest.mark.django_db

TOPIC = "Technical Foundation and Self Assessment"
NUMERIC = {
    "title": "Tile size",
    "topic": TOPIC,
    "difficulty": "easy",
    "tags": ["memory"],
    "prompt": "How much memory do 16 Mi float32 values take?",
    "sample_answer": "64 MiB.",
    "explanation": "16 Mi values x 4 bytes = 64 MiB.",
    "hints": "",
    "answer_value": 64.0,
    "answer_unit": "MiB",
    "tolerance": 0.01,
}
CONCEPT = {
    "title": "Why tiles",
    "topic": TOPIC,
    "difficulty": "medium",
    "tags": [],
    "prompt": "Why does tiling speed up a matrix multiply?",
    "sample_answer": "It reuses cached data.",
    "explanation": "",
    "hints": "",
    "rubric": ["Reuse", "Cache size", "Bandwidth", "Arithmetic intensity"],
}


@pytest.fixture
def author(staff_author):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    return staff_author


def refusal(kind, values, author, slug="tile-size"):
    with pytest.raises(AuthoringError) as refused:
        writing.save_question(kind, slug, values, author)
    assert not Question.objects.filter(slug=slug).exists()
    return " | ".join(refused.value.reasons)


def test_a_unit_learners_cannot_type_is_refused_with_the_spelling_to_use(author):
    # pint reads "kb" as a kilobarn; a learner's "64 kb" is read as kilobytes.
    reasons = refusal(Kind.NUMERIC, {**NUMERIC, "answer_unit": "kb"}, author)
    assert "“64 kb” would be refused: Expected a value in kb, got bytes." in reasons
    assert "Write the unit as “kB”" in reasons


def test_an_unknown_topic_is_refused(author):
    reasons = refusal(Kind.NUMERIC, {**NUMERIC, "topic": "Technical foundation"}, author)
    assert "unknown topic 'Technical foundation'" in reasons


@pytest.mark.parametrize(
    ("kind", "values", "reason"),
    [
        (Kind.NUMERIC, {**NUMERIC, "explanation": ""}, "missing section '# Explanation'"),
        (Kind.CONCEPT, {**CONCEPT, "sample_answer": ""}, "missing section '# Sample answer'"),
        (Kind.CONCEPT, {**CONCEPT, "rubric": ["Reuse"]}, "rubric has 1 items; a concept question needs 4 to 8"),
    ],
)
def test_a_missing_section_is_refused(author, kind, values, reason):
    assert reason in refusal(kind, values, author)


def test_every_unit_in_the_bank_passes_the_unit_check():
    entries, _errors = loader.read_bank(loader.default_bank_dir())
    numeric = [entry.fields for entry in entries if entry.fields["kind"] == Kind.NUMERIC]
    assert numeric
    for fields in numeric:
        problems = writing.unit_problems(fields["answer_value"], fields["answer_unit"], fields["tolerance"])
        assert problems == [], fields["slug"]


def test_a_saved_question_is_a_private_draft_then_published_and_exported(author, tmp_path):
    question = writing.save_question(Kind.NUMERIC, "tile-size", NUMERIC, author)
    assert question.visibility == Visibility.ASSESSMENT
    assert services.question_state(question) == services.QuestionState.DRAFT
    assert services.set_public(question, True, author)
    path = services.export_to_bank(question, author, root=tmp_path)
    entries, errors = loader.read_bank(tmp_path)
    assert errors == [] and entries[0].path == path
    assert entries[0].fields["answer_unit"] == "MiB" and entries[0].fields["answer_value"] == 64
    question.refresh_from_db()
    assert services.question_state(question) == services.QuestionState.PUBLISHED
    actions = list(question.authoring_events.values_list("action", flat=True))
    assert actions == [AuthoringEvent.Action.EXPORTED, AuthoringEvent.Action.PUBLISHED, AuthoringEvent.Action.CREATED]


def test_a_question_the_bank_would_refuse_is_not_published(author):
    question = writing.save_question(Kind.CONCEPT, "why-tiles", CONCEPT, author)
    Question.objects.filter(pk=question.pk).update(rubric=["Only one"])  # as an admin edit could leave it
    question.refresh_from_db()
    with pytest.raises(AuthoringError) as refused:
        services.set_public(question, True, author)
    assert "rubric has 1 items" in refused.value.reasons[0]
    assert not Question.objects.get(pk=question.pk).is_public


def test_the_question_page_says_what_the_bank_would_refuse(client, author):
    question = writing.save_question(Kind.CONCEPT, "why-tiles", CONCEPT, author)
    client.force_login(author)
    page_url = reverse("authoring:exercise", args=[question.slug])
    assert "The bank would refuse this question" not in client.get(page_url).content.decode()
    Question.objects.filter(pk=question.pk).update(rubric=["Only one"])
    assert "rubric has 1 items" in client.get(page_url).content.decode()


def numeric_form(**changes):
    data = {**NUMERIC, "slug": "", "tags": "memory, cache", "save": "1"}
    data.update(changes)
    return data


def test_the_form_keeps_what_was_typed_when_the_unit_is_refused(client, author):
    client.force_login(author)
    response = client.post(reverse("authoring:new_question", args=["numeric"]), numeric_form(answer_unit="Mib"))
    page = response.content.decode()
    assert response.status_code == 200 and not Question.objects.exists()
    assert "Write the unit as “Mibit”" in page
    assert 'value="Mib"' in page and "How much memory do 16 Mi float32 values take?" in page


def test_the_form_offers_only_the_banks_topics(client, author):
    client.force_login(author)
    response = client.post(reverse("authoring:new_question", args=["numeric"]), numeric_form(topic="Memory"))
    assert "Select a valid choice" in response.content.decode() and not Question.objects.exists()


def test_an_author_writes_edits_and_sees_every_kind_on_the_home(client, author):
    client.force_login(author)
    response = client.post(reverse("authoring:new_question", args=["numeric"]), numeric_form())
    question = Question.objects.get(slug="tile-size")
    assert response.url == reverse("authoring:exercise", args=[question.slug])
    assert question.tags == ["memory", "cache"] and question.answer_unit == "MiB"
    client.post(reverse("authoring:edit", args=[question.slug]), numeric_form(title="Tile size in MiB", tags="memory"))
    question.refresh_from_db()
    assert question.title == "Tile size in MiB" and question.tags == ["memory"]
    home = client.get(reverse("authoring:index")).content.decode()
    for kind in ("concept", "numeric"):
        assert reverse("authoring:new_question", args=[kind]) in home
    assert reverse("authoring:new_exercise") in home
    assert "Tile size in MiB" in home and ">Draft</span>" in home
    preview = client.get(reverse("authoring:preview", args=[question.slug])).content.decode()
    assert "A bare number is read in MiB" in preview


def test_check_without_saving_saves_nothing(client, author):
    client.force_login(author)
    url = reverse("authoring:new_question", args=["numeric"])
    data = {**numeric_form(), "check": "1"}
    del data["save"]
    assert "Every check passes" in client.post(url, data).content.decode()
    assert "“64 kb” would be refused" in client.post(url, {**data, "answer_unit": "kb"}).content.decode()
    assert not Question.objects.exists() and not AuthoringEvent.objects.exists()
