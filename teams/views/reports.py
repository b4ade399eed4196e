"""The team's reports: the assessment's table and CSV, one candidate's report, the timings
behind a figure, and a reviewer's rubric score (any member of the organisation)."""

import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from questions.models import Kind
from submissions.timings import timings_response

from .. import reports, services, similarity
from ..access import scoped_object_or_404
from ..forms import ReviewForm
from ..models import Answer, CandidateSession, SessionSubmission, SittingKind
from ..services import integrity, practice
from .gates import _assessment


@login_required
def report(request, org, pk):
    assessment = _assessment(request, org, pk)
    candidate_reports = reports.assessment_reports(assessment)
    context = {
        "assessment": assessment,
        "organisation": assessment.organisation,
        "items": assessment.items.select_related("question"),
        "reports": candidate_reports,
        "flags": reports.assessment_similarity(assessment, candidate_reports),
        "flag_threshold": similarity.FLAG_THRESHOLD,
        "flag_min_tokens": similarity.MIN_SHARED_TOKENS,
    }
    return render(request, "teams/report.html", context)


@login_required
def report_csv(request, org, pk):
    assessment = _assessment(request, org, pk)
    buffer = io.StringIO()
    reports.write_csv(assessment, reports.assessment_reports(assessment), buffer)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="assessment-{assessment.pk}-report.csv"'
    return response


def _team_session(request, org, session_pk):
    return scoped_object_or_404(
        request.user,
        CandidateSession.objects.select_related("assessment__organisation", "invitation", "candidate"),
        pk=session_pk,
        assessment__organisation__slug=org,
        kind=SittingKind.REAL,  # a practice sitting is the candidate's own: no team page shows it
    )


@login_required
def candidate_report(request, org, session_pk):
    session = _team_session(request, org, session_pk)
    services.audit.record_report_view(session, request.user)
    candidate = reports.candidate_report(session)
    rows = [
        (
            result,
            ReviewForm(result.question.rubric, initial={"points": result.answer.rubric_checked})
            if result.answer and result.kind == Kind.CONCEPT
            else None,
        )
        for result in candidate.results
    ]
    context = {
        "session": session,
        "assessment": session.assessment,
        "took_practice": practice.took_practice(session.invitation),
        "organisation": session.assessment.organisation,
        "report": candidate,
        "rows": rows,
        "flags": reports.sitting_similarity(session, reports.assessment_reports(session.assessment)),
        "signals": integrity.timeline(session),
        "playback": integrity.playback(session),
    }
    return render(request, "teams/candidate_report.html", context)


@require_GET
@login_required
def submission_timings(request, org, session_pk, submission_pk):
    """Every timed call behind a candidate's figures, for the team to check them."""
    session = _team_session(request, org, session_pk)
    link = get_object_or_404(
        SessionSubmission.objects.select_related("submission__exercise__question"),
        session=session,
        submission_id=submission_pk,
    )
    return timings_response(link.submission)


@login_required
@require_POST
def grade_again(request, org, session_pk, submission_pk):
    """The team asks for another grading of a candidate's accepted answer (services.grade_again)."""
    session = _team_session(request, org, session_pk)
    link = get_object_or_404(
        SessionSubmission.objects.select_related("submission", "item"), session=session, submission_id=submission_pk
    )
    try:
        services.grade_again(session, link.submission, request.user)
    except services.TeamsError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            f"Question {link.item.number}'s answer is queued for another grading of the same code; the report counts "
            "its gradings by their middle one and updates when it is done.",
        )
    return redirect(reverse("teams:candidate_report", args=[org, session_pk]) + f"#item-{link.item.number}")


@login_required
@require_POST
def review_answer(request, org, session_pk, answer_pk):
    answer = scoped_object_or_404(
        request.user,
        Answer.objects.select_related("item__question", "session__assessment__organisation"),
        pk=answer_pk,
        session__pk=session_pk,
        session__assessment__organisation__slug=org,
    )
    target = reverse("teams:candidate_report", args=[org, session_pk]) + f"#item-{answer.item.number}"
    form = ReviewForm(answer.item.question.rubric, request.POST)
    if not form.is_valid():
        messages.error(request, "Tick the rubric points the answer covers.")
        return redirect(target)
    try:
        services.review_answer(answer, form.cleaned_data["points"], request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(target)
    messages.success(request, f"Review of question {answer.item.number} saved.")
    return redirect(target)
