"""The practice gate holds in the API too: a candidate with a sitting in progress cannot read its
questions through /api/v1/questions/ or /api/v1/exercises/ (api.views.refuse_during_sitting)."""

import pytest

from api import tokens
from api.models import Scope
from teams import services
from teams.models import FinishReason, SignalKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def candidate_token(candidate):
    return tokens.create_token(candidate, "laptop", Scope.READ, 7)[1]


def get(client, path, token):
    return client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")


def test_a_sitting_question_is_refused_with_a_reason_and_recorded(client, session, items, candidate_token, settings):
    settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING = True
    numeric, coding = items[1].question, items[2].question
    for path in (f"/api/v1/questions/{numeric.slug}/", f"/api/v1/exercises/{coding.slug}/"):
        refused = get(client, path, candidate_token)
        assert (refused.status_code, refused.json()["code"]) == (403, "in_sitting")
        assert session.assessment.title in refused.json()["message"]
    opened = session.signals.filter(kind=SignalKind.QUESTION_OPENED)
    assert sorted(opened.values_list("data__path", flat=True)) == sorted(
        [f"/api/v1/questions/{numeric.slug}/", f"/api/v1/exercises/{coding.slug}/"]
    )
    assert client.get(f"/api/v1/questions/{numeric.slug}/").status_code == 200  # anyone else still reads it

    services.finish_session(session, FinishReason.SUBMITTED)
    assert get(client, f"/api/v1/questions/{numeric.slug}/", candidate_token).status_code == 200


def test_with_the_gate_off_the_question_opens_but_is_recorded(client, session, items, candidate_token, settings):
    settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING = False
    assert get(client, f"/api/v1/questions/{items[0].question.slug}/", candidate_token).status_code == 200
    assert session.signals.filter(kind=SignalKind.QUESTION_OPENED).count() == 1
