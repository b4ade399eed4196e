"""The mock interview pages: the start form and history, the timed question pages, the
report. Every page shows only the signed-in learner's own interviews (404 otherwise)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from submissions.figures import times
from submissions.states import Status

from . import report as reports
from . import sittings
from .drawing import NothingToDraw
from .forms import StartForm
from .models import FinishReason


def _interview_or_404(request, pk):
    interview = sittings.own_interview(request.user, pk)
    if interview is None:
        raise Http404("No such mock interview.")
    return interview


def _item_or_404(interview, number):
    item = interview.items.select_related("question", "exercise_version", "attempt").filter(position=number - 1).first()
    if item is None:
        raise Http404("No such question in this mock interview.")
    return item


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")


def _history(user):
    """The user's interviews, newest first, each with (points, questions) once finished."""
    interviews = list(sittings.user_interviews(user))
    for interview in interviews:
        sittings.finalise_if_expired(interview)
    return [(i, reports.history_row_score(i) if i.is_finished else None) for i in interviews]


@login_required
def index(request):
    return render(request, "mock_interviews/index.html", {"form": StartForm(), "history": _history(request.user)})


@login_required
@require_POST
def start(request):
    form = StartForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            interview = sittings.start_interview(request.user, data["minutes"], data["topics"], data["difficulty"])
        except NothingToDraw as nothing:
            form.add_error(None, str(nothing))
        except sittings.RunningAlready as running:
            messages.info(request, running.message)
            return redirect("mock_interviews:question", sittings.running_interview(request.user).pk, 1)
        else:
            return redirect("mock_interviews:question", interview.pk, 1)
    context = {"form": form, "history": _history(request.user)}
    return render(request, "mock_interviews/index.html", context, status=400)


def _submission_rows(item):
    return list(item.submissions.order_by("created_at", "pk"))


@login_required
def question(request, pk, number):
    interview = _interview_or_404(request, pk)
    item = _item_or_404(interview, number)
    sittings.finalise_if_expired(interview)
    if interview.is_finished:
        return redirect("mock_interviews:report", interview.pk)
    items = list(interview.items.select_related("question").prefetch_related("submissions"))
    answered = {other.pk for other in items if other.text or other.numeric_input or other.submissions.all()}
    code = item.text or (item.exercise_version.starter_code if item.exercise_version else "")
    context = {
        "interview": interview,
        "item": item,
        "items": items,
        "answered": answered,
        "code": code,
        "submissions": _submission_rows(item),
        "confidence_levels": (1, 2, 3, 4, 5),
        "previous_number": number - 1 if number > 1 else None,
        "next_number": number + 1 if number < len(items) else None,
        "seconds_left": interview.seconds_left(),
    }
    return render(request, "mock_interviews/question.html", context)


@login_required
@require_POST
def save_answer(request, pk, number):
    interview = _interview_or_404(request, pk)
    item = _item_or_404(interview, number)
    try:
        message = sittings.save_answer(
            item,
            text=request.POST.get("text"),
            numeric_input=request.POST.get("numeric_input"),
            confidence=request.POST.get("confidence"),
        )
    except sittings.MockInterviewError as error:
        status = 409 if isinstance(error, sittings.InterviewClosed) else 400
        if _wants_json(request):
            return JsonResponse({"saved": False, "error": error.message}, status=status)
        messages.error(request, error.message)
        return redirect("mock_interviews:question", interview.pk, number)
    if _wants_json(request):
        return JsonResponse({"saved": True, "saved_at": item.updated_at.isoformat(), "message": message})
    if message:
        messages.warning(request, message)
    return redirect("mock_interviews:question", interview.pk, number)


@login_required
@require_POST
def submit_code(request, pk, number):
    interview = _interview_or_404(request, pk)
    item = _item_or_404(interview, number)
    here = reverse("mock_interviews:question", args=[interview.pk, number])
    try:
        sittings.submit_code(item, request.POST.get("code", ""))
    except sittings.MockInterviewError as error:
        messages.error(request, error.message)
        return redirect(here)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(here)
    messages.success(request, "Submitted for grading. The result appears below when it is ready.")
    return redirect(here + "#submissions")


@login_required
def submission_status(request, pk, number):
    """What the coding panel polls while a submission is grading (the rows teams/take.js reads)."""
    interview = _interview_or_404(request, pk)
    item = _item_or_404(interview, number)
    rows = [
        {
            "id": submission.pk,
            "status": submission.status,
            "final": submission.status in Status.FINAL,
            "verdict": submission.verdict,
            "verdict_label": submission.verdict_label,
            "speedup": submission.speedup,
            "speedup_label": times(submission.speedup) if submission.speedup else "",
            "message": submission.message,
            "feedback_html": render_to_string("mock_interviews/_feedback.html", {"submission": submission}),
        }
        for submission in _submission_rows(item)
    ]
    return JsonResponse({"submissions": rows})


@login_required
@require_POST
def finish(request, pk):
    interview = _interview_or_404(request, pk)
    if not sittings.finalise_if_expired(interview):
        sittings.finish_interview(interview, FinishReason.SUBMITTED)
    return redirect("mock_interviews:report", interview.pk)


@login_required
def report(request, pk):
    interview = _interview_or_404(request, pk)
    sittings.finalise_if_expired(interview)
    if not interview.is_finished:
        return redirect("mock_interviews:question", interview.pk, 1)
    context = {"interview": interview, "report": reports.interview_report(interview)}
    return render(request, "mock_interviews/report.html", context)


@login_required
@require_POST
def mark(request, pk, number):
    interview = _interview_or_404(request, pk)
    item = _item_or_404(interview, number)
    try:
        sittings.mark_concept(item, request.POST.getlist("rubric"))
    except sittings.MockInterviewError as error:
        messages.error(request, error.message)
    return redirect(reverse("mock_interviews:report", args=[interview.pk]) + f"#q{number}")
