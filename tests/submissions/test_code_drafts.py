"""The learner's code is kept: autosaved per exercise and user, kept on every
submission, restored on the exercise page, and "edit again" from a submission."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from questions.models import Draft
from submissions.models import Submission

from .conftest import TINY_FILES

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "code-drafts"}
    }
    cache.clear()


@pytest.fixture
def no_broker(monkeypatch):
    monkeypatch.setattr("submissions.services.queueing.enqueue", lambda submission: None)


def exercise_page(client, exercise_version):
    return client.get(exercise_version.question.get_absolute_url())


def test_starter_first_then_the_autosaved_draft(candidate_client, candidate, exercise_version):
    page = exercise_page(candidate_client, exercise_version)
    assert "# Return x * 3 + 1, faster than a loop." in page.content.decode()
    assert "no-store" in page["Cache-Control"]  # Back re-fetches the page, and so shows the latest draft

    response = candidate_client.post(
        reverse("questions:save_draft", args=[exercise_version.question.slug]),
        {"text": "def scale(x):\n    return 0\n"},
    )
    assert response.status_code == 200 and response.json()["saved"] is True

    html = exercise_page(candidate_client, exercise_version).content.decode()
    assert "def scale(x):\n    return 0\n</textarea>" in html
    assert TINY_FILES["starter.py"] not in html


def test_drafts_are_per_user(client, candidate, outsider, exercise_version):
    Draft.objects.create(user=candidate, question=exercise_version.question, text="# candidate's secret plan\n")
    client.force_login(outsider)
    assert "secret plan" not in exercise_page(client, exercise_version).content.decode()


def test_a_code_draft_may_be_as_long_as_a_submission(candidate_client, exercise_version, settings):
    url = reverse("questions:save_draft", args=[exercise_version.question.slug])
    assert candidate_client.post(url, {"text": "#" * settings.SUBMISSION_MAX_BYTES}).status_code == 200
    response = candidate_client.post(url, {"text": "#" * (settings.SUBMISSION_MAX_BYTES + 1)})
    assert response.status_code == 400 and "limited to" in response.json()["error"]


def test_submitting_keeps_the_code_even_when_refused(candidate_client, candidate, exercise_version, no_broker):
    submit = reverse("submissions:submit", args=[exercise_version.question.slug])
    candidate_client.post(submit, {"code": "def scale(x):\r\n    return x\r\n", "purpose": "practice"})
    assert Draft.objects.get(user=candidate).text == "def scale(x):\n    return x\n"

    refused = "def scale(x):\n    return x  # \ufffd\n"  # what a browser sends for bytes that were not UTF-8
    response = candidate_client.post(submit, {"code": refused, "purpose": "practice"})
    assert response.status_code == 400
    assert Draft.objects.get(user=candidate).text == refused
    assert "return x  # \ufffd" in exercise_page(candidate_client, exercise_version).content.decode()


def test_edit_again_loads_a_submission_into_the_editor(candidate_client, candidate, exercise_version):
    old = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="def scale(x):\n    return x * 3 + 1  # old\n"
    )
    Draft.objects.create(user=candidate, question=exercise_version.question, text="# something newer\n")
    detail = candidate_client.get(old.get_absolute_url()).content.decode()
    edit_url = reverse("submissions:edit_again", args=[old.pk])
    assert edit_url in detail and "Edit again" in detail

    response = candidate_client.post(edit_url)
    assert response.status_code == 302
    assert response["Location"] == exercise_version.question.get_absolute_url() + "#code-editor"
    html = exercise_page(candidate_client, exercise_version).content.decode()
    assert "return x * 3 + 1  # old" in html and "something newer" not in html
    assert edit_url in html  # the previous-submissions table offers it too


def test_edit_again_is_the_owners_only_and_post_only(client, candidate, outsider, staff_author, exercise_version):
    theirs = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)
    url = reverse("submissions:edit_again", args=[theirs.pk])
    client.force_login(staff_author)  # staff may read the submission, not take its code
    assert url not in client.get(theirs.get_absolute_url()).content.decode()
    client.force_login(outsider)
    assert client.post(url).status_code == 404
    assert not Draft.objects.filter(user=outsider).exists()
    client.force_login(candidate)
    assert client.get(url).status_code == 405
