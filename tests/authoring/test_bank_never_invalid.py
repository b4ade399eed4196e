"""No sequence of the authoring pages leaves the bank invalid (issue 32): Hypothesis draws
sequences of what an author can do to a question of each kind (write it, be refused,
publish, unpublish, export, a new code version, an admin edit that breaks its text, a
disk that fills up halfway through an export), and after every step the bank folder holds
only entries load_bank reads, whole, with no staging folder left; after each sequence the
strict loader loads all of it. The bank is a folder of the test's own."""

import pathlib
import shutil

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from authoring.models import AuthoringEvent
from questions import loader
from questions.models import ExerciseVersion, Kind, Question

from .test_export import first_version

pytestmark = pytest.mark.django_db

SLUGS = {Kind.CONCEPT: "why-tiles", Kind.NUMERIC: "tile-size", Kind.CODING: "square-fast"}
TOPIC = "Technical Foundation and Self Assessment"
GOOD = {
    Kind.CONCEPT: {
        "prompt": "Why does tiling speed up a matrix multiply?",
        "rubric": "Reuse\nCache size\nBandwidth\nArithmetic intensity",
        "sample_answer": "It reuses cached data.",
    },
    Kind.NUMERIC: {
        "prompt": "How much memory do 16 Mi float32 values take?",
        "answer_value": "64",
        "answer_unit": "MiB",
        "tolerance": "0.01",
        "sample_answer": "64 MiB.",
        "explanation": "16 Mi values times 4 bytes.",
    },
    Kind.CODING: {"prompt": "Square every value.", "sample_answer": "`np.square(values)`."},
}
#: What each kind's form refuses after the bank's or the unit checker's reading of it.
REFUSED = {
    Kind.CONCEPT: {"rubric": "Only one point"},
    Kind.NUMERIC: {"answer_unit": "Mib"},  # pint's mebibarn: learners could not type it back
    Kind.CODING: {"prompt": "Square it.\n\n# Sample answer\n\nA second one."},
}
ACTIONS = (
    "write",
    "write_refused",
    "admin_breaks_it",
    "publish",
    "unpublish",
    "export",
    "export_disk_full",
    "code_version",
)
#: One kind a sequence, so its steps meet (a write, an admin edit, then an export) often enough to matter.
KIND = st.sampled_from(list(SLUGS))
STEPS = st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=10)


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


def assert_bank_loads(root):
    entries, errors = loader.read_bank(root)
    assert errors == [], errors
    assert [path.name for path in root.rglob(".*")] == []


def form(kind, number, **changes):
    data = {"title": f"Question {number}", "topic": TOPIC, "difficulty": "easy", **GOOD[kind], "save": "1"}
    if kind == Kind.CODING:
        data["topic"] = "Algorithmic Complexity & Code-Level Optimization"
    data.update(changes)
    return data


def write(client, kind, number, refused=False):
    question = Question.objects.filter(slug=SLUGS[kind]).first()
    data = form(kind, number, **(REFUSED[kind] if refused else {}))
    if question is None:
        url = reverse("authoring:new_question", args=[kind])
        data["slug"] = SLUGS[kind]
    else:
        url = reverse("authoring:edit_text" if kind == Kind.CODING else "authoring:edit", args=[question.slug])
    response = client.post(url, data)
    assert response.status_code == (200 if refused else 302), response.content.decode()[-3000:]


def export_with_a_full_disk(client, slug, monkeypatch):
    """Export, with the disk full at the entry's last file: the page says so and nothing changes."""
    real_write_text = pathlib.Path.write_text
    last = "solution.py" if slug == SLUGS[Kind.CODING] else f"{slug}.md"

    def disk_full(path, text, *args, **kwargs):
        if path.name == last:
            raise OSError(28, "No space left on device")
        return real_write_text(path, text, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(pathlib.Path, "write_text", disk_full)
        return client.post(reverse("authoring:export", args=[slug]))


def act(client, kind, action, number, monkeypatch):
    if action == "write":
        return write(client, kind, number)
    if action == "write_refused":
        return write(client, kind, number, refused=True)
    question = Question.objects.filter(slug=SLUGS[kind]).first()
    if question is None:
        return None
    if action == "admin_breaks_it":
        # What the Django admin can still do: it checks no bank rule.
        return Question.objects.filter(pk=question.pk).update(sample_answer="")
    if action == "code_version":
        # The edit page saves the same rows after grading the code in the sandbox (tests/authoring/test_authoring.py).
        return first_version(question) if kind == Kind.CODING and question.current_exercise() is None else None
    if action == "export_disk_full":
        return export_with_a_full_disk(client, question.slug, monkeypatch)
    if action in ("publish", "unpublish"):
        return client.post(reverse("authoring:publish", args=[question.slug]), {"public": int(action == "publish")})
    return client.post(reverse("authoring:export", args=[question.slug]))


@hypothesis_settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(kind=KIND, steps=STEPS)
def test_no_sequence_of_authoring_steps_leaves_the_bank_invalid(client, author, bank_root, monkeypatch, kind, steps):
    AuthoringEvent.objects.all().delete()
    ExerciseVersion.objects.all().delete()
    Question.objects.all().delete()
    shutil.rmtree(bank_root)
    bank_root.mkdir()
    client.force_login(author)
    for number, action in enumerate(steps):
        act(client, kind, action, number, monkeypatch)
        assert_bank_loads(bank_root)
    loader.load_bank(bank_root, validate=False, strict=True)
