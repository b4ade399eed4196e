"""The editorial (sample answer and model solution) of a coding exercise opens to a learner
only after their own accepted practice submission: never before, never from a sitting."""

import pytest
from django.urls import reverse

from practice.editorial import editorial_for
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

pytestmark = pytest.mark.django_db

SAMPLE = "Use `np.square`."
LOCKED = "opens here once your own practice submission is accepted"


def _submit(user, coding, verdict=Verdict.ACCEPTED, purpose=Purpose.PRACTICE):
    return Submission.objects.create(
        user=user, exercise=coding.current_exercise(), code="x", purpose=purpose, status=Status.DONE, verdict=verdict
    )


def _page(client, coding):
    return client.get(reverse("questions:detail", args=[coding.slug])).content.decode()


def test_locked_before_any_submission(candidate_client, candidate, loaded_bank):
    coding = loaded_bank["coding"]
    html = _page(candidate_client, coding)
    assert "Editorial" not in html and SAMPLE not in html
    assert LOCKED in html
    assert editorial_for(candidate, coding) is None


@pytest.mark.parametrize(
    "verdict, purpose",
    [
        (Verdict.WRONG_ANSWER, Purpose.PRACTICE),
        (Verdict.ACCEPTED, Purpose.ASSESSMENT),
        (Verdict.ACCEPTED, Purpose.ASSESSMENT_CHECK),
        (Verdict.ACCEPTED, Purpose.QUICK_CHECK),
    ],
)
def test_not_earned_by_rejection_sitting_or_quick_check(candidate_client, candidate, loaded_bank, verdict, purpose):
    coding = loaded_bank["coding"]
    _submit(candidate, coding, verdict=verdict, purpose=purpose)
    assert SAMPLE not in _page(candidate_client, coding)
    assert editorial_for(candidate, coding) is None


def test_someone_elses_acceptance_earns_nothing(candidate_client, outsider, loaded_bank):
    coding = loaded_bank["coding"]
    _submit(outsider, coding)
    assert SAMPLE not in _page(candidate_client, coding)


def test_shown_after_own_acceptance(candidate_client, candidate, loaded_bank):
    coding = loaded_bank["coding"]
    _submit(candidate, coding)
    html = _page(candidate_client, coding)
    assert 'id="editorial-heading">Editorial' in html
    assert "np.square" in html
    assert "return np.square(values)" in html  # the model solution, not in the starter or reference
    assert LOCKED not in html
    editorial = editorial_for(candidate, coding)
    assert editorial.sample_answer == SAMPLE
    assert editorial.solution_code == coding.current_exercise().solution_code


def test_anonymous_sees_neither(client, loaded_bank):
    html = _page(client, loaded_bank["coding"])
    assert SAMPLE not in html and LOCKED not in html
