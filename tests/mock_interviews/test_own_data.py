"""A learner's mock interviews are their own data: in the export, gone when the account closes."""

import pytest

from mock_interviews import sittings
from mock_interviews.models import FinishReason, MockInterview
from mydata import services as mydata
from questions.models import Kind

pytestmark = pytest.mark.django_db


def test_mock_interviews_are_exported_and_removed_with_the_account(small_bank, learner):
    interview = sittings.start_interview(learner, 20)
    numeric = interview.items.get(question__kind=Kind.NUMERIC)
    sittings.save_answer(numeric, numeric_input="4 GiB", confidence="3")
    sittings.finish_interview(interview, FinishReason.SUBMITTED)

    [exported] = mydata.export(learner)["mock_interviews"]
    row = next(q for q in exported["questions"] if q["question"] == "gib-in-bytes")
    assert exported["minutes"] == 20 and exported["finish_reason"] == "submitted"
    numeric.refresh_from_db()
    assert row["numeric_input"] == "4 GiB" and row["confidence"] == 3 and row["answer"] == numeric.attempt_id

    mydata.close_account(learner)
    assert not MockInterview.objects.filter(user=learner).exists()
