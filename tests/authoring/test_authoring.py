"""Author pages: staff in the Authors group validate an exercise in the real
sandbox, save edits as new versions and export them to the bank."""

import pytest
import yaml
from django.contrib.auth.models import Group
from django.urls import reverse

from submissions.models import Submission
from authoring.services import version_files
from authoring.models import AuthoringEvent
from questions import loader
from questions.models import ExerciseVersion, Kind, Question, Visibility

pytestmark = pytest.mark.django_db

#: 200,000 at the largest size: validation asserts speedup > 1, and the reference's list comprehension
#: must take far longer than a busy machine's preemption can add to np.square's call (as in
#: tests/grader/conftest.py's BUSY_PROOF_SIZES).
SPEC = {
    "target": "cpu",
    "entry_point": "transform",
    "sizes": [20000, 200000],
    "edge_sizes": [0, 1],
    "tolerance": {"rtol": 1e-9, "atol": 0.0},
    "repeats": 3,
    "limits": {"time_s": 30, "memory_mb": 512, "processes": 16, "output_kb": 64, "disk_mb": 16},
    "allowed_imports": ["numpy"],
    "graded_on": ["time", "memory"],
}
FILES = {
    "reference.py": "import numpy as np\n\ndef transform(values):\n    return np.array([v * v for v in values])\n",
    "starter.py": "def transform(values):\n    return values\n",
    "inputs.py": "import numpy as np\n\ndef make_inputs(size, seed):\n    return (np.random.default_rng(seed).random(size),)\n",
    "solution.py": "import numpy as np\n\ndef transform(values):\n    return np.square(values)\n",
}


@pytest.fixture
def author(staff_author):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    return staff_author


@pytest.fixture
def exercise(db):
    question = Question.objects.create(
        slug="square-fast",
        title="Square fast",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Square it.",
        sample_answer="Use NumPy.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=SPEC,
        content_hash=loader.exercise_content_hash(SPEC, FILES),
        **{loader.EXERCISE_FILES[name]: text for name, text in FILES.items()},
    )


def edit_data(**changes):
    form = {
        "spec": yaml.safe_dump(SPEC),
        "reference": FILES["reference.py"],
        "starter": FILES["starter.py"],
        "inputs": FILES["inputs.py"],
        "solution": FILES["solution.py"],
        "check": "",
    }
    form.update(changes)
    return form


def test_authors_group_grants_the_permission(author, make_user):
    assert author.has_perm("authoring.author_questions")
    assert not author.is_superuser
    plain_staff = make_user("plain-staff", is_staff=True)
    assert not plain_staff.has_perm("authoring.author_questions")


def test_staff_outside_the_group_are_refused(client, make_user):
    client.force_login(make_user("plain-staff", is_staff=True))
    assert client.get(reverse("authoring:index")).status_code == 403


def test_validation_measures_speedup_and_memory(client, author, exercise):
    client.force_login(author)
    response = client.post(reverse("authoring:validate", args=[exercise.question.slug]), follow=True)
    exercise.refresh_from_db()
    report = exercise.validation_report
    assert report["verdict"] == "accepted"
    assert report["speedup"] > 1
    assert report["peak_memory_bytes"] > 0 and report["reference_peak_memory_bytes"] > 0
    page = response.content.decode()
    assert "Validation passed" in page
    assert "MiB" in page
    assert AuthoringEvent.objects.get().action == AuthoringEvent.Action.VALIDATED
    assert not Submission.objects.exists()  # validation is not a learner's submission


def test_edit_saves_a_new_version_and_keeps_the_old(client, author, exercise, candidate):
    old_submission = Submission.objects.create(user=candidate, exercise=exercise, code="x = 1")
    faster = "import numpy as np\n\ndef transform(values):\n    return values * values\n"
    client.force_login(author)
    response = client.post(
        reverse("authoring:edit", args=[exercise.question.slug]),
        edit_data(solution=faster.replace("\n", "\r\n"), save="1"),
    )
    assert response.status_code == 302
    v1, v2 = exercise.question.exercise_versions.order_by("number")
    assert v1.solution_code == FILES["solution.py"]  # untouched
    assert v2.number == 2 and v2.solution_code == faster
    assert v2.validation_report["verdict"] == "accepted"
    assert v2.content_hash == loader.exercise_content_hash(SPEC, version_files(v2))
    old_submission.refresh_from_db()
    assert old_submission.exercise == v1


def test_edit_that_fails_validation_is_not_saved(client, author, exercise):
    wrong = "def transform(values):\n    return values + 1\n"
    client.force_login(author)
    response = client.post(
        reverse("authoring:edit", args=[exercise.question.slug]), edit_data(solution=wrong, save="1")
    )
    assert "Validation failed, so no version was saved" in response.content.decode()
    assert exercise.question.exercise_versions.count() == 1


def test_unchanged_edit_is_refused(client, author, exercise):
    client.force_login(author)
    response = client.post(reverse("authoring:edit", args=[exercise.question.slug]), edit_data(save="1"))
    assert "Nothing changed" in response.content.decode()


def test_bad_spec_is_explained(client, author, exercise):
    client.force_login(author)
    response = client.post(
        reverse("authoring:edit", args=[exercise.question.slug]),
        edit_data(spec="target: tpu\nentry_point: x\n", save="1"),
    )
    page = response.content.decode()
    assert "bad target" in page
    assert exercise.question.exercise_versions.count() == 1


def test_export_writes_the_bank_entry_load_bank_reads(client, author, exercise, tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "default_bank_dir", lambda: tmp_path)
    client.force_login(author)
    client.post(reverse("authoring:export", args=[exercise.question.slug]))
    folder = tmp_path / "algorithmic-complexity" / "square-fast"
    assert (folder / "question.md").is_file()
    assert (folder / "solution.py").read_text() == FILES["solution.py"]
    entries, errors = loader.read_bank(tmp_path)
    assert errors == []
    assert entries[0].exercise_hash == exercise.content_hash
    question = Question.objects.get(pk=exercise.question.pk)
    assert question.source_path == "algorithmic-complexity/square-fast"
    assert question.content_hash == entries[0].content_hash


def test_view_as_a_candidate_shows_a_private_draft_to_its_author(client, author, exercise, make_user):
    """Issue 32: "View as a candidate" on a new (private) exercise was a 404."""
    question = exercise.question
    question.visibility = Visibility.ASSESSMENT  # as "New exercise" creates it: on no public page
    question.save()
    client.force_login(author)
    page = client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    preview_url = reverse("authoring:preview", args=[question.slug])
    assert f'href="{preview_url}">View as a candidate' in page
    response = client.get(preview_url)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Square it." in body and "A preview of a question on no public page" in body
    assert "def transform(values):" in body  # the starter the editor opens with
    client.force_login(make_user("learner"))
    assert client.get(preview_url).status_code == 403
    assert client.get(question.get_absolute_url()).status_code == 404


def test_an_author_publishes_and_unpublishes_and_the_history_says_who(client, author, exercise):
    """Issue 32, item 4: publishing was hidden in the Django admin."""
    question = exercise.question
    question.visibility = Visibility.ASSESSMENT
    question.save()
    client.force_login(author)
    publish_url = reverse("authoring:publish", args=[question.slug])
    assert (
        'value="1">\n  <button type="submit" class="button">Publish</button>'
        in client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    )
    client.post(publish_url, {"public": "1"})
    question.refresh_from_db()
    assert question.is_public
    assert client.get(question.get_absolute_url()).status_code == 200
    client.post(publish_url, {"public": "0"})
    question.refresh_from_db()
    assert question.visibility == Visibility.ASSESSMENT
    assert client.get(question.get_absolute_url()).status_code == 404
    actions = list(AuthoringEvent.objects.filter(question=question).values_list("action", "user__username"))
    assert actions == [("unpublished", "author"), ("published", "author")]
    page = client.get(reverse("authoring:exercise", args=[question.slug])).content.decode()
    assert "author · made it public" in page and "author · took it off the public pages" in page


def test_a_coding_exercise_without_a_version_cannot_be_published(client, author, db):
    question = Question.objects.create(
        slug="empty-one",
        title="Empty",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Nothing yet.",
        sample_answer="-",
        visibility=Visibility.ASSESSMENT,
    )
    client.force_login(author)
    response = client.post(reverse("authoring:publish", args=[question.slug]), {"public": "1"}, follow=True)
    question.refresh_from_db()
    assert not question.is_public
    assert "has no version yet" in response.content.decode()


def test_only_authors_publish(client, exercise, make_user):
    client.force_login(make_user("learner"))
    assert client.post(reverse("authoring:publish", args=[exercise.question.slug]), {"public": "0"}).status_code == 403


def test_the_navigation_leads_authors_to_authoring_and_no_one_else(client, author, make_user):
    link = f'<a href="{reverse("authoring:index")}"'
    client.force_login(author)
    assert link in client.get(reverse("home")).content.decode()
    client.force_login(make_user("learner"))
    assert link not in client.get(reverse("home")).content.decode()
