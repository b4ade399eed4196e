"""Issue 30 in the hiring reports: an accepted answer that is not faster than the reference
earns correctness credit only (as if it ran at exactly the reference's speed); the unchanged
starter earns nothing; candidates whose intervals overlap share their rank on a question."""

import pytest
from django.urls import reverse

from submissions.services import lifecycle
from submissions.states import Speed, Verdict
from teams import reports, services

from .conftest import STARTER

pytestmark = pytest.mark.django_db

MINE = "import numpy as np\n\ndef transform(values):\n    return np.square(values)\n"


def grade(submission, speedup, ci):
    report = {
        "verdict": Verdict.ACCEPTED,
        "speedup": speedup,
        "speedup_ci": list(ci) if ci else None,
        "message": "Correct.",
        "peak_memory_bytes": 2**20,
        "reference_peak_memory_bytes": 2**20,
        "hardware": "cpu",
    }
    return lifecycle.finish(submission, report)


def coding_result(session, coding):
    return next(r for r in reports.candidate_report(session).results if r.item == coding)


def test_not_faster_earns_correctness_credit_only(session, items):
    coding = items[2]
    coding.target_speedup = 4.0
    coding.save()
    grade(services.submit_code(session, coding, MINE), 1.3, (0.9, 1.7))  # its figure says 1.3x, its interval reaches 1

    result = coding_result(session, coding)
    assert result.score == 0.5
    assert result.speed == Speed.NOT_FASTER
    assert result.status_label == "Correct, but not faster than the reference"


def test_with_no_target_a_correct_answer_still_earns_full_marks(session, items):
    coding = items[2]
    grade(services.submit_code(session, coding, MINE), 1.0, (0.9, 1.1))
    assert coding_result(session, coding).score == 1.0


def test_the_unchanged_starter_scores_nothing_even_above_1(session, items):
    coding = items[2]
    grade(services.submit_code(session, coding, STARTER + "# untouched\n"), 1.3, (1.1, 1.5))

    result = coding_result(session, coding)
    assert result.score == 0.0
    assert result.speed == Speed.STARTER
    assert result.status_label == "Correct, but the starter code unchanged"


def test_a_faster_program_counts_before_a_luckier_not_faster_one(session, items):
    coding = items[2]
    coding.target_speedup = 4.0
    coding.save()
    faster = grade(services.submit_code(session, coding, MINE), 1.5, (1.2, 1.8))
    grade(services.submit_code(session, coding, MINE.replace("np.square(values)", "values ** 2")), 1.9, (0.8, 3.0))

    result = coding_result(session, coding)
    assert result.best_submission.pk == faster.pk
    assert result.score == pytest.approx(reports.speed_score(1.5, 4.0))


def test_the_comparison_shares_ranks_and_labels_not_faster(
    client, hiring_manager, organisation, session, items, invite, make_user
):
    coding = items[2]
    grade(services.submit_code(session, coding, MINE), 8.0, (7.0, 9.0))
    for name, speedup, ci in [("close", 7.5, (6.8, 8.2)), ("slow", 3.0, (2.8, 3.2)), ("level", 1.05, (0.9, 1.2))]:
        user = make_user(name)
        invitation, _ = invite(user.email)
        other = services.start_session(invitation, user)
        grade(services.submit_code(other, coding, MINE.replace("values", name)), speedup, ci)

    client.force_login(hiring_manager)
    page = client.get(reverse("teams:report", args=[organisation.slug, session.assessment.pk])).content.decode()
    ranks = [cell.split("</span>")[0] for cell in page.split('<span class="speed-rank"')[1:]]
    assert [rank.split(">")[-1] for rank in ranks] == ["=1", "=1", "3"]
    assert "Correct, but not faster than the reference" in page
    assert "95% intervals overlap" in page


def test_the_candidate_report_shows_the_label(client, hiring_manager, organisation, session, items):
    coding = items[2]
    grade(services.submit_code(session, coding, MINE), 1.02, (0.95, 1.1))
    client.force_login(hiring_manager)
    page = client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).content.decode()
    assert "Correct, but not faster than the reference" in page
