"""A candidate's quick check inside a sitting, and the owner's choice of what candidates see
during one (results, tracebacks, quick check, hints, leaderboards): a quick check runs the
small inputs, shows its result, and never counts as an answer or towards a score."""

import pytest
from django.urls import reverse

from submissions.models import Purpose, Submission, queue_for
from submissions.services import lifecycle
from submissions.services.listing import recent_submissions
from submissions.states import Verdict
from teams import reports, services
from teams.models import Assessment

pytestmark = pytest.mark.django_db

# Not the starter (teams conftest.STARTER): the starter unchanged never scores (issue 30).
CODE = "def transform(v):\n    return [x * x for x in v]\n"
TRACEBACK = 'File "solution.py", line 2, in transform\nIndexError: list index out of range'


def page(client, session, number=3):
    return client.get(reverse("teams:take_question", args=[session.pk, number])).content.decode()


def coding_result(session, item):
    return next(result for result in reports.candidate_report(session).results if result.item == item)


def finish(submission, verdict=Verdict.ACCEPTED, **report):
    lifecycle.finish(submission, {"verdict": verdict, "message": report.pop("message", "Correct."), **report})


def test_the_defaults_show_results_tracebacks_and_quick_check_but_not_hints_or_leaderboards():
    assessment = Assessment()
    assert (assessment.show_verdicts, assessment.show_tracebacks, assessment.allow_quick_check) == (True, True, True)
    assert (assessment.show_hints, assessment.show_leaderboards) == (False, False)
    assert assessment.candidate_view_summary == "results, tracebacks, quick check"


def test_the_candidate_runs_a_quick_check_from_the_sitting(candidate_client, session, items):
    html = page(candidate_client, session)
    assert 'name="purpose" value="check" data-action="check"' in html and "never scored" in html
    response = candidate_client.post(
        reverse("teams:submit_code", args=[session.pk, 3]), {"code": CODE, "purpose": "check"}
    )
    assert response.status_code == 302
    check = Submission.objects.get()
    assert check.purpose == Purpose.ASSESSMENT_CHECK and check.exercise == items[2].exercise_version
    assert check.queue == "check" and lifecycle.grading_mode(check.purpose) == "check"
    assert session.session_submissions.get().submission == check
    finish(check, message="Correct on the small inputs.", mode="check")
    html = page(candidate_client, session)
    assert "Quick check" in html and "Correct on the small inputs." in html
    rows = candidate_client.get(reverse("teams:submission_status", args=[session.pk, 3])).json()["submissions"]
    assert rows[0]["quick_check"] is True and rows[0]["verdict"] == Verdict.ACCEPTED


def test_a_gpu_quick_check_still_goes_to_the_gpu_queue():
    assert queue_for("gpu", Purpose.ASSESSMENT_CHECK) == "gpu" and queue_for("cpu", Purpose.ASSESSMENT) == "cpu"


def test_an_accepted_quick_check_is_never_scored_nor_an_answer(candidate_client, session, items):
    coding = items[2]
    finish(services.submit_code(session, coding, CODE, quick_check=True), speedup=40.0)
    result = coding_result(session, coding)
    assert result.score == 0.0 and result.status_label == "No submission" and len(result.checks) == 1
    assert result.best_submission is None
    assert reports.candidate_report(session).score == 0.0
    steps = page(candidate_client, session).split('aria-label="Questions"')[1].split("</nav>")[0]
    assert 'class="answered"' not in steps  # a quick check answers nothing

    finish(services.submit_code(session, coding, CODE), speedup=2.0, hardware="cpu")
    result = coding_result(session, coding)
    assert result.score == 1.0 and result.best_submission.purpose == Purpose.ASSESSMENT


def test_a_pending_quick_check_does_not_hold_the_score(session, items):
    finish(services.submit_code(session, items[2], CODE), verdict=Verdict.WRONG_ANSWER, message="Wrong.")
    services.submit_code(session, items[2], CODE, quick_check=True)  # still queued
    assert coding_result(session, items[2]).score == 0.0


def test_the_owner_can_turn_the_quick_check_off(candidate_client, assessment, session, items):
    Assessment.objects.filter(pk=assessment.pk).update(allow_quick_check=False)
    session.refresh_from_db()
    assert 'value="check"' not in page(candidate_client, session)
    candidate_client.post(reverse("teams:submit_code", args=[session.pk, 3]), {"code": CODE, "purpose": "check"})
    assert not Submission.objects.exists()
    with pytest.raises(services.TeamsError):
        services.submit_code(session, items[2], CODE, quick_check=True)


def test_with_results_hidden_the_candidate_sees_only_that_it_was_graded(candidate_client, assessment, session, items):
    Assessment.objects.filter(pk=assessment.pk).update(show_verdicts=False)
    session.refresh_from_db()
    graded = services.submit_code(session, items[2], CODE)
    finish(graded, Verdict.RUNTIME_ERROR, message="Your code raised IndexError.", failure={"traceback": TRACEBACK})
    check = services.submit_code(session, items[2], CODE, quick_check=True)
    finish(check, Verdict.RUNTIME_ERROR, message="The quick check raised IndexError.", failure={"traceback": TRACEBACK})
    html = page(candidate_client, session)
    assert "Your code raised IndexError." not in html and "Runtime error" in html  # the quick check's own result
    assert "The quick check raised IndexError." in html and html.count("<summary>Traceback</summary>") == 1
    assert ">Graded</span>" in html
    rows = {
        row["id"]: row
        for row in candidate_client.get(reverse("teams:submission_status", args=[session.pk, 3])).json()["submissions"]
    }
    assert (
        rows[graded.pk]["verdict"] == ""
        and rows[graded.pk]["message"] == ""
        and rows[graded.pk]["verdict_label"] == "Graded"
    )
    assert "IndexError" not in rows[graded.pk]["feedback_html"]
    assert (
        rows[check.pk]["verdict"] == Verdict.RUNTIME_ERROR
        and "list index out of range" in rows[check.pk]["feedback_html"]
    )


def test_with_tracebacks_hidden_the_message_shows_without_them(candidate_client, assessment, session, items):
    Assessment.objects.filter(pk=assessment.pk).update(show_tracebacks=False)
    session.refresh_from_db()
    finish(
        services.submit_code(session, items[2], CODE),
        Verdict.RUNTIME_ERROR,
        message="Your code raised IndexError.",
        failure={"traceback": TRACEBACK},
    )
    html = page(candidate_client, session)
    assert "Your code raised IndexError." in html and "list index out of range" not in html


def test_hints_and_the_leaderboard_link_only_when_the_owner_allows(candidate_client, assessment, session, items):
    question = items[2].question
    question.hints = "Try **numpy**."
    question.save()
    html = page(candidate_client, session)
    assert "<summary>Hints</summary>" not in html and "public leaderboard" not in html
    Assessment.objects.filter(pk=assessment.pk).update(show_hints=True, show_leaderboards=True)
    html = page(candidate_client, session)
    assert "<summary>Hints</summary>" in html and "<strong>numpy</strong>" in html
    assert reverse("leaderboards:exercise", args=[question.slug]) in html


def test_the_owner_chooses_in_the_form_and_the_report_shows_it(client, hiring_manager, assessment, session):
    organisation = assessment.organisation
    client.force_login(hiring_manager)
    edit = reverse("teams:assessment_edit", args=[organisation.slug, assessment.pk])
    form = client.get(edit).content.decode()
    assert "What candidates see during a sitting" in form and 'name="show_leaderboards"' in form
    assert 'id="id_show_verdicts" checked' in form and 'id="id_show_leaderboards">' in form
    data = {
        "title": assessment.title,
        "instructions": assessment.instructions,
        "opens_at": assessment.opens_at.strftime("%Y-%m-%dT%H:%M"),
        "closes_at": assessment.closes_at.strftime("%Y-%m-%dT%H:%M"),
        "show_verdicts": "on",
        "show_hints": "on",  # tracebacks, quick check and leaderboards unticked
    }
    assert client.post(edit, data).status_code == 302
    assessment.refresh_from_db()
    assert (assessment.show_verdicts, assessment.show_tracebacks, assessment.allow_quick_check) == (True, False, False)
    assert (assessment.show_hints, assessment.show_leaderboards) == (True, False)
    report = client.get(reverse("teams:report", args=[organisation.slug, assessment.pk])).content.decode()
    assert "candidates could see: results, hints." in report
    one = client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).content.decode()
    assert "Results, hints" in one


def test_the_report_lists_quick_checks_apart(client, hiring_manager, assessment, session, items):
    finish(services.submit_code(session, items[2], "def transform(v):\n    return v  # checked\n", quick_check=True))
    client.force_login(hiring_manager)
    html = client.get(
        reverse("teams:candidate_report", args=[assessment.organisation.slug, session.pk])
    ).content.decode()
    assert "1 quick check (small inputs, never scored)" in html and "# checked" in html
    assert "No submissions." in html


def test_the_learners_own_pages_leave_the_sitting_out(candidate_client, session, items, staff_author, client):
    """Else "My submissions" would show what the owner chose to hide during the sitting."""
    graded = services.submit_code(session, items[2], CODE)
    finish(graded, message="Your answer was graded: 40x faster.", speedup=40.0)
    check = services.submit_code(session, items[2], CODE, quick_check=True)
    for submission in (graded, check):
        for name in ("submissions:detail", "submissions:status", "submissions:timings"):
            assert candidate_client.get(reverse(name, args=[submission.pk])).status_code == 404, name
        assert candidate_client.post(reverse("submissions:edit_again", args=[submission.pk])).status_code == 404
    listing = candidate_client.get(reverse("submissions:list")).content.decode()
    assert "40x faster" not in listing and items[2].question.title not in listing
    assert "Quick check in an assessment" not in listing and ">Assessment<" not in listing
    assert not list(recent_submissions(graded.user, items[2].question))
    client.force_login(staff_author)  # the same client, now staff
    assert client.get(reverse("submissions:detail", args=[check.pk])).status_code == 200  # staff still reach them
