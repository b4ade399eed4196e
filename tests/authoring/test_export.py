"""Export to the bank cannot break it: an entry the loader would refuse is not written (the
author reads why on the page), and an entry that is written appears whole or not at all."""

import pathlib

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring.forms import ExerciseEditForm
from authoring.models import AuthoringEvent
from questions import loader
from questions.models import ExerciseVersion, Kind, Question

pytestmark = pytest.mark.django_db

TOPIC = "Algorithmic Complexity & Code-Level Optimization"


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


def first_version(question):
    """The authoring template's code as the question's version 1 (what "Validate and save" makes)."""
    initial = ExerciseEditForm.template_initial()
    form = ExerciseEditForm(data=initial)
    assert form.is_valid(), form.errors
    spec, files = form.cleaned_data["spec"], form.files_dict()
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=spec,
        content_hash=loader.exercise_content_hash(spec, files),
        validation_report={"verdict": "accepted"},
        **{loader.EXERCISE_FILES[name]: text for name, text in files.items()},
    )


def coding_question(**fields):
    values = {
        "slug": "square-fast",
        "title": "Square fast",
        "topic": TOPIC,
        "difficulty": "easy",
        "kind": Kind.CODING,
        "prompt": "Square it.",
        "sample_answer": "Use NumPy.",
    }
    values.update(fields)
    question = Question.objects.create(**values)
    first_version(question)
    return question


def files_under(root):
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def export(client, question):
    return client.post(reverse("authoring:export", args=[question.slug]))


def test_an_exercise_without_a_sample_answer_is_refused_on_the_page_and_nothing_is_written(client, author, bank_root):
    question = coding_question(sample_answer="")
    client.force_login(author)
    response = export(client, question)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Not exported" in page and "missing section &#x27;# Sample answer&#x27;" in page
    assert files_under(bank_root) == []
    question.refresh_from_db()
    assert question.source_path == "" and not AuthoringEvent.objects.exists()


def test_a_numeric_question_with_a_near_miss_topic_is_refused_and_nothing_is_written(client, author, bank_root):
    question = Question.objects.create(
        slug="gib-in-bytes",
        title="Bytes in 4 GiB",
        topic="Technical Foundation & Self Assessment",
        difficulty="easy",
        kind=Kind.NUMERIC,
        prompt="How many bytes?",
        sample_answer="2^32",
        explanation="4 × 2^30.",
        answer_value=4294967296,
        answer_unit="bytes",
        tolerance=0.01,
    )
    client.force_login(author)
    response = export(client, question)
    assert response.status_code == 200
    assert "unknown topic &#x27;Technical Foundation &amp; Self Assessment&#x27;" in response.content.decode()
    assert files_under(bank_root) == []


def test_an_exported_exercise_loads_with_the_strict_loader(client, author, bank_root):
    question = coding_question()
    client.force_login(author)
    response = export(client, question)
    assert response.status_code == 302
    report = loader.load_bank(bank_root, validate=False, strict=True)
    assert report.unchanged == ["square-fast"] and report.problems == []
    assert [name for name in files_under(bank_root) if name.rsplit("/", 1)[-1].startswith(".")] == []  # no staging left


def test_a_write_that_fails_midway_leaves_the_previous_entry_whole(client, author, bank_root, monkeypatch):
    question = coding_question()
    client.force_login(author)
    export(client, question)
    folder = bank_root / "algorithmic-complexity" / "square-fast"
    before = {path.name: path.read_text() for path in folder.iterdir()}
    Question.objects.filter(pk=question.pk).update(prompt="Square every value, fast.")

    real_write_text = pathlib.Path.write_text

    def disk_full_at_the_solution(path, text, *args, **kwargs):
        if path.name == "solution.py":
            raise OSError(28, "No space left on device")
        return real_write_text(path, text, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", disk_full_at_the_solution)
    response = export(client, question)
    assert response.status_code == 200 and "No space left on device" in response.content.decode()
    assert {path.name: path.read_text() for path in folder.iterdir()} == before
    assert [name for name in files_under(bank_root) if "/." in f"/{name}"] == []


def test_the_new_exercise_form_asks_for_every_section_the_bank_requires(client, author):
    client.force_login(author)
    page = client.get(reverse("authoring:new_exercise")).content.decode()
    for name in loader.REQUIRED_SECTIONS[Kind.CODING]:
        assert f'name="{name}"' in page
    response = client.post(
        reverse("authoring:new_exercise"),
        {
            "title": "Vectorise a loop",
            "slug": "vectorise-a-loop",
            "topic": TOPIC,
            "difficulty": "easy",
            "prompt": "Make it fast.",
        },
    )
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not Question.objects.filter(slug="vectorise-a-loop").exists()


def test_the_new_exercise_form_offers_only_the_banks_topics(client, author):
    Question.objects.create(
        slug="admin-made",
        title="Admin made",
        topic="Technical Foundation & Self Assessment",
        difficulty="easy",
        kind=Kind.CONCEPT,
        prompt="p",
    )
    client.force_login(author)
    page = client.get(reverse("authoring:new_exercise")).content.decode()
    assert "Technical Foundation &amp; Self Assessment" not in page
    for topic in loader.TOPIC_FOLDERS:
        assert f'value="{topic}"'.replace("&", "&amp;") in page


def test_new_exercise_then_save_then_export_gives_a_bank_entry_that_loads(client, author, bank_root):
    """The issue's path: New exercise, Validate and save (here the version is written directly), Export."""
    client.force_login(author)
    response = client.post(
        reverse("authoring:new_exercise"),
        {
            "title": "Vectorise a loop",
            "slug": "vectorise-a-loop",
            "topic": TOPIC,
            "difficulty": "easy",
            "prompt": "Make it fast.",
            "sample_answer": "One NumPy expression over the whole array.",
        },
    )
    assert response.status_code == 302
    question = Question.objects.get(slug="vectorise-a-loop")
    first_version(question)
    assert export(client, question).status_code == 302
    report = loader.load_bank(bank_root, validate=False, strict=True)
    assert report.unchanged == ["vectorise-a-loop"]


def test_an_exercise_whose_last_validation_failed_is_not_exported(client, author, bank_root):
    """load_bank grades an exercise it has not seen: a model solution the sandbox refused
    would be left out of every other site's bank (and its question taken off the public pages)."""
    question = coding_question()
    ExerciseVersion.objects.filter(question=question).update(
        validation_report={"verdict": "wrong_answer", "message": "index 3 differs"}
    )
    client.force_login(author)
    page = export(client, question).content.decode()
    assert "version 1 last failed validation" in page and "solution.py was graded wrong_answer: index 3 differs" in page
    assert files_under(bank_root) == []
    ExerciseVersion.objects.filter(question=question).update(validation_report={"skipped": "no GPU on this machine"})
    assert export(client, question).status_code == 302  # never graded here: load_bank grades it
