"""'Grade this code again' on a learner's own accepted practice answer: the same code,
another grading, with every rule a submission has (services.grade_again)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from questions.models import ExerciseVersion
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

from .conftest import TINY_FILES

CODE = TINY_FILES["solution.py"]
BUTTON = "Grade this code again"


@pytest.fixture
def graded(candidate, exercise_version):
    def make(verdict=Verdict.ACCEPTED, speedup=3.0, purpose=Purpose.PRACTICE, user=candidate):
        return Submission.objects.create(
            user=user,
            exercise=exercise_version,
            code=CODE,
            purpose=purpose,
            status=Status.DONE,
            verdict=verdict,
            speedup=speedup,
            hardware="cpu",
        )

    return make


def grade_again(client, submission):
    return client.post(reverse("submissions:grade_again", args=[submission.pk]), follow=True)


def test_an_accepted_answer_is_graded_again_as_the_same_program(
    candidate_client, graded, queued, django_capture_on_commit_callbacks
):
    first = graded()
    assert BUTTON in candidate_client.get(first.get_absolute_url()).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        response = grade_again(candidate_client, first)

    again = Submission.objects.latest("id")
    assert again.pk != first.pk and response.redirect_chain == [(again.get_absolute_url(), 302)]
    assert (again.user, again.exercise, again.code, again.purpose) == (
        first.user,
        first.exercise,
        CODE,
        Purpose.PRACTICE,
    )
    assert again.program == first.program and again.status == Status.QUEUED
    assert [args for args, _ in queued] == [[again.pk]]


def test_it_grades_on_the_exercises_current_version(candidate_client, graded, exercise_version, queued):
    first = graded()
    newer = ExerciseVersion.objects.create(
        question=exercise_version.question,
        number=2,
        spec=exercise_version.spec,
        reference_code=exercise_version.reference_code,
        starter_code="",
        inputs_code=exercise_version.inputs_code,
        solution_code="",
        content_hash="tiny-2",
    )
    grade_again(candidate_client, first)
    assert Submission.objects.latest("id").exercise == newer


@pytest.mark.parametrize(
    "fields",
    [
        {"verdict": Verdict.WRONG_ANSWER, "speedup": None},
        {"verdict": Verdict.ACCEPTED, "speedup": None},
        {"purpose": Purpose.QUICK_CHECK, "speedup": None},
    ],
)
def test_only_an_answer_with_figures_offers_it(candidate_client, graded, queued, fields):
    submission = graded(**fields)
    assert BUTTON not in candidate_client.get(submission.get_absolute_url()).content.decode()

    page = grade_again(candidate_client, submission).content.decode()

    assert "Only your own accepted practice answers can be graded again." in page
    assert Submission.objects.count() == 1 and not queued


def test_it_is_the_owners_only_and_never_a_sittings(client, graded, outsider, staff_author, queued):
    theirs = graded()
    client.force_login(staff_author)  # staff may read the submission, not grade it on its owner's account
    assert BUTTON not in client.get(theirs.get_absolute_url()).content.decode()
    assert grade_again(client, theirs).status_code == 404
    client.force_login(outsider)
    assert grade_again(client, theirs).status_code == 404
    client.force_login(theirs.user)
    assert grade_again(client, graded(purpose=Purpose.ASSESSMENT)).status_code == 404
    assert client.get(reverse("submissions:grade_again", args=[theirs.pk])).status_code == 405
    assert Submission.objects.count() == 2 and not queued


def test_a_refusal_is_said_on_the_answers_page(candidate_client, candidate, graded, exercise_version, settings, queued):
    first = graded()
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 1
    Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)  # waiting to be graded

    response = grade_again(candidate_client, first)

    assert response.redirect_chain == [(first.get_absolute_url(), 302)]
    assert "You already have 1 submission(s) waiting to be graded" in response.content.decode()
    assert not queued

    Submission.objects.filter(status=Status.QUEUED).delete()
    exercise_version.question.retired_at = timezone.now()
    exercise_version.question.save()
    assert (
        "This exercise takes no more submissions: it was retired."
        in grade_again(candidate_client, first).content.decode()
    )
    assert list(Submission.objects.all()) == [first]
