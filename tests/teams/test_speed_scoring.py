"""A coding question's score reflects speed as its owner configured: half marks for a
correct answer at the reference's speed, full marks at the target speedup, a log scale
between; the rule is shown before the start, on the question and in the report."""

import math

import pytest
from django.urls import reverse

from submissions.services import lifecycle
from submissions.states import Verdict
from teams import reports, services
from teams.reports import speed_score

pytestmark = pytest.mark.django_db


def test_speed_score_curve():
    assert speed_score(40.9, None) == 1.0  # no target: any accepted answer
    assert speed_score(40.9, 10) == 1.0 and speed_score(10, 10) == 1.0
    assert speed_score(1.0, 10) == 0.5 and speed_score(0.5, 10) == 0.5
    assert speed_score(1.84, 10) == pytest.approx(0.5 + 0.5 * math.log(1.84) / math.log(10))
    assert speed_score(math.sqrt(10), 10) == pytest.approx(0.75)


# Not the starter (conftest.STARTER, `return values`): the starter unchanged never scores (issue 30).
def accept(session, item, speedup, code="def transform(v):\n    return [x * x for x in v]\n"):
    submission = services.submit_code(session, item, code)
    lifecycle.finish(
        submission, {"verdict": Verdict.ACCEPTED, "speedup": speedup, "message": "Correct.", "hardware": "cpu"}
    )


def test_the_owner_sets_a_target_and_the_best_answer_counts(client, hiring_manager, session, items):
    coding = items[2]
    coding.target_speedup = 10.0
    coding.save()
    accept(session, coding, 1.84)
    coding_result = next(r for r in reports.candidate_report(session).results if r.item == coding)
    assert coding_result.score == pytest.approx(speed_score(1.84, 10.0)) and coding_result.score < 0.7
    accept(session, coding, 40.9, code="def transform(v):\n    return v * 1\n")  # another program
    coding_result = next(r for r in reports.candidate_report(session).results if r.item == coding)
    assert coding_result.score == 1.0


def test_the_rule_is_shown_to_the_candidate_and_the_team(candidate_client, session, items):
    coding = items[2]
    coding.target_speedup = 8.0
    coding.save()
    rule = "A correct answer earns half marks at the reference's speed, rising with its speedup to full marks at 8× faster or more."
    assert coding.scoring_rule == rule
    html = candidate_client.get(reverse("teams:take_question", args=[session.pk, 3])).content.decode()
    assert "half marks at the reference&#x27;s speed" in html and "8× faster or more" in html


def test_adding_a_question_with_a_target(client, hiring_manager, draft_assessment, coding_question):
    organisation = draft_assessment.organisation
    draft_assessment.items.filter(question=coding_question).delete()
    client.force_login(hiring_manager)
    url = reverse("teams:add_question", args=[organisation.slug, draft_assessment.pk])
    client.post(url, {"question": coding_question.pk, "target_speedup": "12"})
    assert draft_assessment.items.get(question=coding_question).target_speedup == 12.0
    page = client.get(reverse("teams:assessment", args=[organisation.slug, draft_assessment.pk])).content.decode()
    assert "12× faster or more" in page
