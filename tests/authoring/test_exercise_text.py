"""A coding exercise's text (prompt, sample answer, the other sections) written on the
authoring pages, not the Django admin: checked as the bank export checks it, previewed as
learners read it, saved with who did it, and published and exported only when the bank
would load it."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring import services, writing
from authoring.errors import AuthoringError
from authoring.models import AuthoringEvent
from questions import loader
from questions.models import Kind, Question, Visibility

from .test_export import TOPIC, coding_question, export

pytestmark = pytest.mark.django_db

NEW_PROMPT = "Return the square of every value in `values`, without a Python loop."
NEW_SAMPLE = "`np.square(values)`: one pass in C over the whole array."


@pytest.fixture
def author(staff_author):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    return staff_author


@pytest.fixture
def bank_root(tmp_path, monkeypatch):
    root = tmp_path / "bank"
    root.mkdir()
    monkeypatch.setattr(loader, "default_bank_dir", lambda: root)
    return root


def text_form(question, **changes):
    data = {
        "title": question.title,
        "topic": question.topic,
        "difficulty": question.difficulty,
        "tags": "numpy, vectorise",
        "prompt": NEW_PROMPT,
        "sample_answer": NEW_SAMPLE,
        "explanation": "",
        "hints": "Look for a ufunc.",
        "save": "1",
    }
    data.update(changes)
    return data


def test_the_exercise_page_leads_to_its_text_form_not_the_admin(client, author):
    question = coding_question()
    client.force_login(author)
    page = client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    assert f'href="{reverse("authoring:edit_text", args=[question.slug])}">Edit its text' in page
    assert "/admin/questions/" not in page
    form = client.get(reverse("authoring:edit_text", args=[question.slug])).content.decode()
    for name in loader.SECTIONS:
        assert f'name="{name}"' in form
    assert 'name="slug"' not in form  # addresses and submissions point at it
    assert "Square it." in form  # what is saved, to edit


def test_an_author_edits_the_prompt_and_sample_answer_and_the_export_loads(client, author, bank_root):
    question = coding_question()
    client.force_login(author)
    response = client.post(reverse("authoring:edit_text", args=[question.slug]), text_form(question))
    assert response.status_code == 302 and response["Location"] == reverse("authoring:exercise", args=[question.slug])
    question.refresh_from_db()
    assert question.prompt == NEW_PROMPT and question.sample_answer == NEW_SAMPLE
    assert question.tags == ["numpy", "vectorise"] and question.hints == "Look for a ufunc."
    assert question.exercise_versions.count() == 1  # the text is no new version of the code
    event = AuthoringEvent.objects.get(question=question)
    assert (event.action, event.user) == (AuthoringEvent.Action.EDITED, author)
    page = client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    assert "author · edited it" in page

    assert export(client, question).status_code == 302
    report = loader.load_bank(bank_root, validate=False, strict=True)
    assert report.unchanged == [question.slug]
    entries, _errors = loader.read_bank(bank_root)
    assert entries[0].fields["prompt"] == NEW_PROMPT and entries[0].fields["sample_answer"] == NEW_SAMPLE


def test_a_text_the_bank_would_refuse_is_not_saved_and_the_form_keeps_it(client, author):
    question = coding_question()
    client.force_login(author)
    typed = "Square it.\n\n# Sample answer\n\nA second sample answer, inside the prompt."
    response = client.post(reverse("authoring:edit_text", args=[question.slug]), text_form(question, prompt=typed))
    page = response.content.decode()
    assert response.status_code == 200
    assert "section &#x27;# Sample answer&#x27; appears twice" in page
    assert "A second sample answer, inside the prompt." in page
    question.refresh_from_db()
    assert question.prompt == "Square it." and not AuthoringEvent.objects.exists()


def test_the_sample_answer_is_asked_for(client, author):
    question = coding_question()
    client.force_login(author)
    response = client.post(reverse("authoring:edit_text", args=[question.slug]), text_form(question, sample_answer=""))
    assert "This field is required" in response.content.decode()
    question.refresh_from_db()
    assert question.sample_answer == "Use NumPy."


def test_check_and_preview_shows_the_typed_text_as_learners_read_it_and_saves_nothing(client, author):
    question = coding_question()
    client.force_login(author)
    data = text_form(question, check="1", prompt="Square **every** value.")
    del data["save"]
    page = client.post(reverse("authoring:edit_text", args=[question.slug]), data).content.decode()
    assert "Every check passes" in page and "Preview: what learners will read (not saved)" in page
    assert "Square <strong>every</strong> value." in page  # rendered Markdown, as on the exercise's page
    assert "The editorial, once a learner’s own answer is accepted" in page
    assert "np.square(values)" in page  # the sample answer, and the model solution below it
    assert "The code the editor starts from (version 1)" in page
    question.refresh_from_db()
    assert question.prompt == "Square it." and not AuthoringEvent.objects.exists()


def test_a_new_exercise_is_recorded_in_its_history(client, author):
    """Its first step, the page, was saved without an AuthoringEvent: the history began at its first version."""
    client.force_login(author)
    response = client.post(
        reverse("authoring:new_exercise"),
        {
            "title": "Vectorise a loop",
            "slug": "",
            "topic": TOPIC,
            "difficulty": "easy",
            "prompt": "Make it fast.",
            "sample_answer": "One NumPy expression.",
            "save": "1",
        },
    )
    assert response.status_code == 302
    question = Question.objects.get(slug="vectorise-a-loop")
    assert question.kind == Kind.CODING and question.visibility == Visibility.ASSESSMENT
    event = AuthoringEvent.objects.get(question=question)
    assert (event.action, event.user) == (AuthoringEvent.Action.CREATED, author)


def test_an_exercise_whose_text_the_bank_refuses_is_listed_and_not_published(client, author):
    """An exercise made in the admin with no sample answer could be published; its export then failed."""
    question = coding_question(sample_answer="", visibility=Visibility.ASSESSMENT)
    client.force_login(author)
    page = client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    assert "The bank would refuse this question" in page and "missing section &#x27;# Sample answer&#x27;" in page
    with pytest.raises(AuthoringError) as refused:
        services.set_public(question, True, author)
    assert refused.value.reasons == ["missing section '# Sample answer'"]
    assert not Question.objects.get(pk=question.pk).is_public


def test_a_refused_export_of_an_exercise_links_to_its_text_form(client, author, bank_root):
    question = coding_question(sample_answer="")
    client.force_login(author)
    page = export(client, question).content.decode()
    assert f'<a href="{reverse("authoring:edit_text", args=[question.slug])}">Edit its text</a>' in page
    assert "/admin/questions/" not in page


def test_the_text_of_an_exercise_without_a_version_is_checked_with_the_template_spec(author):
    question = writing.save_question(
        Kind.CODING,
        "square-fast",
        {
            "title": "Square fast",
            "topic": TOPIC,
            "difficulty": "easy",
            "prompt": "Square it.",
            "sample_answer": "Use NumPy.",
        },
        author,
    )
    assert question.current_exercise() is None and writing.question_problems(question) == []


def test_only_authors_edit_an_exercise_text_and_only_an_exercise_has_one(client, author, make_user):
    question = coding_question()
    client.force_login(make_user("learner"))
    assert client.get(reverse("authoring:edit_text", args=[question.slug])).status_code == 403
    concept = Question.objects.create(slug="why", title="Why", topic=TOPIC, difficulty="easy", kind=Kind.CONCEPT)
    client.force_login(author)
    assert client.get(reverse("authoring:edit_text", args=[concept.slug])).status_code == 404
