"""What the team sees: per-candidate scores, the submission timeline with diffs,
the comparison table, similarity flags and the CSV export."""

import csv
import io

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils.html import escape

from submissions.services import lifecycle
from submissions.states import Verdict
from teams import reports, services
from teams.fingerprints import tokens
from teams.similarity import item_flags

pytestmark = pytest.mark.django_db

SLOW = "def transform(values):\n    out = []\n    for v in values:\n        out.append(v * v)\n    return out\n"
FAST = "import numpy as np\n\ndef transform(values):\n    # vectorised\n    return np.square(values)\n"
FAST_RENAMED = (
    'import numpy as xp\n\n\ndef transform(data):\n    """Square everything."""\n'
    "    return xp.square(data)  # one pass\n"
)
# Another program (a different expression), not the same code tidied: see the median test below.
POWER = FAST.replace("np.square(values)", "values ** 2")
DIFFERENT = (
    "from numba import njit\n\n@njit(cache=True)\ndef transform(values):\n    n = values.shape[0]\n"
    "    result = values.copy()\n    for i in range(n):\n        result[i] = values[i] * values[i]\n    return result\n"
)


BUSY = "The grading machine was busy: another process held the reference's CPU during part of its timed calls."


def grade(submission, verdict=Verdict.ACCEPTED, speedup=None, memory=None, message=None):
    report = {
        "verdict": verdict,
        "speedup": speedup,
        "speedup_ci": [speedup * 0.9, speedup * 1.1] if speedup else None,
        "message": message or verdict,
        "peak_memory_bytes": memory,
        "reference_peak_memory_bytes": 4 * 2**20,
        "hardware": "cpu",
    }
    return lifecycle.finish(submission, report)


@pytest.fixture
def answered(session, items, reviewer, clock):
    """The candidate answered everything; the reviewer ticked 3 of 4 rubric points."""
    concept, numeric, coding = items
    answer, _ = services.save_answer(session, concept, text="Copies form a geometric series <script>alert(1)</script>")
    services.save_answer(session, numeric, numeric_input="4 GiB")
    clock.advance(minutes=5)
    grade(services.submit_code(session, coding, SLOW), Verdict.WRONG_ANSWER)
    clock.advance(minutes=5)
    grade(services.submit_code(session, coding, FAST), speedup=8.0, memory=2**20, message=BUSY)
    clock.advance(minutes=5)
    grade(services.submit_code(session, coding, POWER), speedup=6.0, memory=2**20)
    services.review_answer(answer, [0, 1, 2], reviewer)
    clock.advance(minutes=10)
    services.finish_session(session, "submitted")
    return session


def test_candidate_report_scores(answered):
    report = reports.candidate_report(answered)
    concept, numeric, coding = report.results
    assert concept.score == 0.75
    assert numeric.score == 1.0
    assert coding.score == 1.0
    assert coding.best_submission.speedup == 8.0  # best accepted, not the last
    assert coding.memory_ratio == 0.25
    # Weighted by difficulty points: medium 2, easy 1, hard 3.
    assert report.score == pytest.approx((0.75 * 2 + 1 * 1 + 1 * 3) / 6)
    assert report.pending_count == 0
    assert report.time_used.total_seconds() == 25 * 60


def test_the_same_program_graded_again_counts_by_its_median(client, reviewer, organisation, session, items, clock):
    """Graded three times, one program read 12x, 8x and 9x: the median (9x) counts,
    whatever was renamed, reworded or reformatted between them, so submitting the same
    code again cannot fish for a lucky figure. Another program counts on its own."""
    coding = items[2]
    for code, speedup in ((FAST, 12.0), (FAST_RENAMED, 8.0), (FAST + "\n\n", 9.0)):
        clock.advance(minutes=1)
        grade(services.submit_code(session, coding, code), speedup=speedup, memory=2**20)
    result = reports.candidate_report(session).results[2]
    assert result.best_submission.speedup == 9.0
    assert [s.speedup for s in result.best_program_gradings] == [12.0, 8.0, 9.0]
    assert result.score == reports.speed_score(9.0, result.item.target_speedup)
    client.force_login(reviewer)
    page = client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).content.decode()
    assert "This code was graded 3 times (12.0×, 8.00×, 9.00×): the middle grading counts" in page

    clock.advance(minutes=1)
    grade(services.submit_code(session, coding, POWER), speedup=10.0, memory=2**20)
    result = reports.candidate_report(session).results[2]
    assert result.best_submission.speedup == 10.0 and result.best_program_gradings == []


def test_code_nested_too_deep_to_parse_does_not_break_the_reports(client, reviewer, organisation, session, items):
    """`x = 1+1+...+1` with thousands of terms made ast.unparse recurse past Python's
    limit: the similarity flags and the candidate report failed with it."""
    deep = "def transform(values):\n    return values * (" + "+".join(["1"] * 5000) + ")\n"
    grade(services.submit_code(session, items[2], deep), speedup=2.0, memory=2**20)
    grade(services.submit_code(session, items[2], deep), speedup=3.0, memory=2**20)
    client.force_login(reviewer)
    assert client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).status_code == 200
    assert client.get(reverse("teams:report", args=[organisation.slug, session.assessment.pk])).status_code == 200
    assert reports.candidate_report(session).results[2].best_submission.speedup == 2.0


def test_unreviewed_concept_answer_is_pending(session, items):
    services.save_answer(session, items[0], text="Something")
    report = reports.candidate_report(session)
    assert report.results[0].score is None
    assert report.results[0].status_label == "Awaiting review"
    # Unanswered numeric and coding items score 0 rather than waiting.
    assert [result.score for result in report.results[1:]] == [0.0, 0.0]
    assert report.pending_count == 1


def test_timeline_diffs_each_submission_from_the_previous(answered):
    coding = reports.candidate_report(answered).results[2]
    timeline = coding.timeline()
    assert [entry.submission.code for entry in timeline] == [SLOW, FAST, POWER]
    assert timeline[0].diff_lines == []
    added = [line for css, line in timeline[1].diff_lines if css == "diff-add"]
    assert "+    return np.square(values)" in added
    assert ("diff-add", "+    return values ** 2") in timeline[2].diff_lines


def test_candidate_report_page(client, reviewer, answered, organisation):
    client.force_login(reviewer)
    page = client.get(reverse("teams:candidate_report", args=[organisation.slug, answered.pk])).content.decode()
    assert "Copies form a geometric series &lt;script&gt;" in page  # candidate text is escaped
    assert "<script>alert(1)" not in page
    assert "Copies form a geometric series.</p>" in page  # the sample answer beside it, rendered
    assert "8.00×" in page
    assert "95% CI 7.20–8.80×" in page
    assert "1.0 MiB vs reference 4.0 MiB (0.250×)" in page
    # The team reads the figure with what the grader said of it, a busy machine included.
    assert f'<p class="grader-message"><strong>The grader\'s message:</strong> {escape(BUSY)}</p>' in page
    assert '<span class="diff-add">+    return np.square(values)</span>' in page
    assert "25 min" in page


def test_team_downloads_the_timed_calls_of_its_candidates_submissions_only(
    client, reviewer, answered, organisation, items, invite, make_user
):
    calls = {"reference_s": [0.8, 0.81, 0.79], "submission_s": [0.1, 0.1, 0.11], "echo_s": [0.001, 0.001, 0.001]}
    graded = answered.session_submissions.order_by("submission__created_at").last().submission
    graded.report = {**graded.report, "sizes": [{"size": 1000, "pairs": 3, "speedup": 8.0, "calls": calls}]}
    graded.save(update_fields=["report"])
    client.force_login(reviewer)
    url = reverse("teams:submission_timings", args=[organisation.slug, answered.pk, graded.pk])
    page = client.get(reverse("teams:candidate_report", args=[organisation.slug, answered.pk])).content.decode()
    assert page.count("every timed call (JSON)") == 1 and url in page  # only the submission that has calls
    data = client.get(url).json()
    assert data["submission"] == graded.pk and data["sizes"][0]["calls"] == calls
    # Another sitting's submission is not reachable through this one.
    someone = make_user("someone")
    other_session = services.start_session(invite(someone.email)[0], someone)
    elsewhere = services.submit_code(other_session, items[2], FAST)
    grade(elsewhere, speedup=3.0, memory=2**20)
    elsewhere.refresh_from_db()
    elsewhere.report = {**elsewhere.report, "sizes": [{"size": 1000, "pairs": 3, "speedup": 3.0, "calls": calls}]}
    elsewhere.save(update_fields=["report"])
    assert (
        client.get(
            reverse("teams:submission_timings", args=[organisation.slug, other_session.pk, elsewhere.pk])
        ).status_code
        == 200
    )
    assert (
        client.get(reverse("teams:submission_timings", args=[organisation.slug, answered.pk, elsewhere.pk])).status_code
        == 404
    )


def test_reviewer_ticks_rubric_points_through_the_page(client, reviewer, session, items, organisation):
    answer, _ = services.save_answer(session, items[0], text="Geometric series")
    client.force_login(reviewer)
    client.post(reverse("teams:review_answer", args=[organisation.slug, session.pk, answer.pk]), {"points": ["1", "3"]})
    answer.refresh_from_db()
    assert answer.rubric_checked == [1, 3]
    assert answer.reviewed_by == reviewer
    assert reports.candidate_report(session).results[0].score == 0.5


def test_review_rejects_points_outside_the_rubric(session, items, reviewer):
    answer, _ = services.save_answer(session, items[0], text="x")
    with pytest.raises(Exception, match="does not exist"):
        services.review_answer(answer, [7], reviewer)


def test_comparison_table_lists_every_candidate_and_flags_no_one_liners(
    client, hiring_manager, answered, invite, make_user, items, clock, organisation
):
    """Two candidates' answers are the same short line under other names: alike, but an
    answer this short is what anyone writes, so it is not listed as a copy (the copies
    that are: tests/teams/test_similarity.py)."""
    copier = make_user("copier")
    original = make_user("original")
    # The candidate's last code is POWER; the copier's is the same with other names and comments.
    copied = FAST_RENAMED.replace("xp.square(data)", "data ** 2")
    for user, code in ((copier, copied), (original, DIFFERENT)):
        invitation, _ = invite(user.email)
        other = services.start_session(invitation, user)
        grade(services.submit_code(other, items[2], code), speedup=5.0, memory=2**20)

    client.force_login(hiring_manager)
    response = client.get(reverse("teams:report", args=[organisation.slug, answered.assessment.pk]))
    assert response.context["flags"] == []
    assert len(response.context["reports"]) == 3
    page = response.content.decode()
    assert 'class="similarity-flag"' not in page and "No similar code found." in page
    assert "candidate@example.com" in page and "original@example.com" in page


def test_csv_export(client, reviewer, answered, organisation):
    client.force_login(reviewer)
    response = client.get(reverse("teams:report_csv", args=[organisation.slug, answered.assessment.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 1
    row = rows[0]
    assert row["email"] == "candidate@example.com"
    assert row["finish_reason"] == "submitted"
    assert row["minutes_used"] == "25.0"
    assert row["q1 doubling-table score"] == "0.75"
    assert row["q2 gib-in-bytes score"] == "1.00"
    assert row["q3 verdict"] == "accepted"
    assert row["q3 speedup"] == "8.000"
    assert row["q3 memory_vs_reference"] == "0.250"


def test_csv_cells_cannot_become_formulas(assessment):
    out = io.StringIO()
    csv.writer(out).writerow([reports._cell("=HYPERLINK(1)"), reports._cell("plain")])
    assert out.getvalue().strip() == "'=HYPERLINK(1),plain"


# Similarity normalisation -------------------------------------------------------------------------


def test_renamed_variables_comments_and_docstrings_still_match():
    assert [t.text for t in tokens(FAST)] == [t.text for t in tokens(FAST_RENAMED)]


def test_different_code_is_not_flagged():
    assert item_flags("q", {"a": FAST, "b": DIFFERENT}) == []


def test_code_that_does_not_parse_is_still_compared():
    broken = "def transform(values:\n    return values * 2\n"
    assert [t.text for t in tokens(broken)] == [t.text for t in tokens(broken.replace("values", "x"))]


def test_the_team_grades_an_accepted_answer_again_once_the_sitting_is_over(
    client, reviewer, organisation, session, items, clock, django_capture_on_commit_callbacks
):
    """The grader's message may say the machine was busy and that grading again gives
    steadier figures: the team can, and the new grading of the same code counts with
    the earlier ones by the middle one."""
    coding = items[2]
    slow = services.submit_code(session, coding, SLOW)
    grade(slow, Verdict.WRONG_ANSWER)
    first = services.submit_code(session, coding, FAST)
    grade(first, speedup=12.0, memory=2**20, message=BUSY)
    first.refresh_from_db()
    slow.refresh_from_db()
    report_url = reverse("teams:candidate_report", args=[organisation.slug, session.pk])
    again_url = reverse("teams:grade_again", args=[organisation.slug, session.pk, first.pk])
    client.force_login(reviewer)
    assert "Grade this code again" not in client.get(report_url).content.decode()  # the sitting is open
    with pytest.raises(services.TeamsError, match="once the sitting is over"):
        services.grade_again(session, first, reviewer)

    services.finish_session(session, "submitted")
    assert "Grade this code again" in client.get(report_url).content.decode()
    clock.advance(minutes=1)
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(again_url, follow=True)
    again = session.session_submissions.order_by("submission__created_at").last().submission
    assert again.pk != first.pk and again.code == first.code and again.purpose == first.purpose
    assert "queued for another grading of the same code" in response.content.decode()
    # One at a time: the first is still queued.
    with pytest.raises(services.TeamsError, match="still running"):
        services.grade_again(session, first, reviewer)

    grade(again, speedup=8.0, memory=2**20)
    page = client.get(report_url).content.decode()
    assert "graded again by the team" in page
    assert "This code was graded 2 times (12.0×, 8.00×)" in page
    assert reports.candidate_report(session).results[2].best_submission.speedup == 8.0
    # The queue cap counts the candidate's account: the team is told so, in its own words.
    with override_settings(SUBMISSION_MAX_QUEUED_PER_USER=0):
        with pytest.raises(services.TeamsError, match="The candidate's account has gradings waiting"):
            services.grade_again(session, first, reviewer)
    # Only an accepted answer of this sitting has figures to grade again.
    with pytest.raises(services.TeamsError, match="Only an accepted answer"):
        services.grade_again(session, slow, reviewer)
