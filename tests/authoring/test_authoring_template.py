"""A coding question with no version yet starts from a small working exercise:
the link says so, the form is filled in, and the template validates and saves as v1
through the real sandbox."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring.forms import ExerciseEditForm
from questions.models import Kind, Question

pytestmark = pytest.mark.django_db


@pytest.fixture
def author(staff_author):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    return staff_author


@pytest.fixture
def new_question():
    return Question.objects.create(
        slug="brand-new",
        title="Brand new exercise",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Vectorise it.",
    )


def test_a_question_without_versions_offers_the_template(client, author, new_question):
    client.force_login(author)
    page = client.get(reverse("authoring:exercise", args=[new_question.slug])).content.decode()
    assert "Write its first version (from a template)" in page
    edit = client.get(reverse("authoring:edit", args=[new_question.slug])).content.decode()
    assert "This exercise has no version yet" in edit
    assert "entry_point: transform" in edit and "out[i] = (2.0 * x[i] + 1.0) ** 2" in edit


def test_the_template_is_a_valid_form():
    form = ExerciseEditForm(data=ExerciseEditForm.template_initial())
    assert form.is_valid(), form.errors


def test_the_template_validates_and_saves_as_the_first_version(client, author, new_question):
    client.force_login(author)
    response = client.post(
        reverse("authoring:edit", args=[new_question.slug]), {**ExerciseEditForm.template_initial(), "save": "1"}
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    version = new_question.exercise_versions.get()
    assert version.number == 1 and version.validation_report["verdict"] == "accepted"


def test_new_exercise_button_makes_a_private_coding_question(client, author, new_question):
    client.force_login(author)
    assert reverse("authoring:new_exercise") in client.get(reverse("authoring:index")).content.decode()
    response = client.post(
        reverse("authoring:new_exercise"),
        {
            "title": "Vectorise a loop",
            "slug": "vectorise-a-loop",
            "topic": new_question.topic,
            "difficulty": "easy",
            "prompt": "Make it fast.",
            "sample_answer": "One NumPy expression.",
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("authoring:edit", args=["vectorise-a-loop"])
    question = Question.objects.get(slug="vectorise-a-loop")
    assert question.kind == Kind.CODING and not question.is_public
    assert client.get(question.get_absolute_url()).status_code == 404  # on no public page yet


@pytest.mark.parametrize(
    ("typed", "saved", "error"),
    [
        ("", "sum-of-squares-without-a-loop", None),  # made from the title
        ("Sum Squares", None, "A slug is lowercase words joined by hyphens, for example “sum-squares”."),
        ("sum_squares", None, "for example “sum-squares”"),
        ("sum-squares", "sum-squares", None),
    ],
)
def test_a_slug_is_made_from_the_title_or_corrected_with_a_suggestion(
    client, author, new_question, typed, saved, error
):
    client.force_login(author)
    response = client.post(
        reverse("authoring:new_exercise"),
        {
            "title": "Sum of squares, without a loop!",
            "slug": typed,
            "topic": new_question.topic,
            "difficulty": "easy",
            "prompt": "Make it fast.",
            "sample_answer": "One NumPy expression.",
        },
    )
    if error:
        assert response.status_code == 200 and error in response.content.decode()
        assert not Question.objects.exclude(pk=new_question.pk).exists()
    else:
        assert response.status_code == 302 and Question.objects.filter(slug=saved).exists()


def test_a_slug_made_from_a_long_title_fits_its_field(client, author, new_question):
    client.force_login(author)
    title = "word " * 39  # 194 characters: its slug would be too
    client.post(
        reverse("authoring:new_exercise"),
        {
            "title": title,
            "slug": "",
            "topic": new_question.topic,
            "difficulty": "easy",
            "prompt": "Make it fast.",
            "sample_answer": "One NumPy expression.",
            "sample_answer": "One NumPy expression.",
        },
    )
    slug = Question.objects.exclude(pk=new_question.pk).get().slug
    assert len(slug) <= 120 and slug.startswith("word-word") and not slug.endswith("-")
