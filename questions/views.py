from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import tracks
from .forms import ConceptAnswerForm, NumericAnswerForm, RubricForm
from .models import Attempt, Kind, Question
from .numeric import slip_words, to_question_unit, unit_slip
from .rendering import render_markdown
from .services import answering, browsing, coverage, drafts, editorial
from .services.calibration import user_calibration

CODING_PANEL_TEMPLATE = "submissions/coding_panel.html"


def browse(request):
    return render(request, "questions/browse.html", {"browse": browsing.browse_questions(request.GET), "orders": browsing.ORDERS})


def _coding_panel_exists():
    """The submissions app provides the editor panel; render without it until it exists."""
    try:
        select_template([CODING_PANEL_TEMPLATE])
    except TemplateDoesNotExist:
        return False
    return True


# Never from the browser's cache: Back after a submission must show the draft saved since, not the page as first served.
@never_cache
def detail(request, slug):
    question = browsing.public_question(slug)
    if question is None:
        raise Http404("No such question.")
    user = request.user
    can_practise = user.is_authenticated and not question.is_retired
    form = None
    if can_practise and question.kind == Kind.CONCEPT:
        form = ConceptAnswerForm(request.POST or None, initial={"answer": drafts.draft_text(user, question)})
    elif can_practise and question.kind == Kind.NUMERIC:
        form = NumericAnswerForm(request.POST or None, unit=question.answer_unit)

    if request.method == "POST":
        if form is None:
            messages.error(request, "This question cannot be answered here." if user.is_authenticated else "Sign in to practise.")
            return redirect(question)
        if form.is_valid():
            attempt = _record_answer(question, user, form)
            if attempt is not None:
                return redirect("questions:attempt", slug=question.slug, pk=attempt.pk)

    context = {
        "question": question,
        "form": form,
        "previous_attempts": Attempt.objects.filter(user=user, question=question)[:5] if user.is_authenticated else [],
    }
    if question.kind == Kind.CODING:
        context["exercise"] = question.exercise
        context["editorial"] = editorial.editorial_for(user, question)
        if _coding_panel_exists():
            context["coding_panel_template"] = CODING_PANEL_TEMPLATE
    return render(request, "questions/detail.html", context)


def track(request, slug):
    progress = tracks.track_progress(slug, request.user)
    if progress is None:
        raise Http404("No such track.")
    return render(request, "questions/track.html", {"progress": progress})


def _record_answer(question, user, form):
    """Returns the new attempt, or None with the problem added to the form."""
    if question.kind == Kind.CONCEPT:
        return answering.reveal_concept_answer(user, question, form.cleaned_data["answer"], form.cleaned_data["confidence"])
    attempt, check = answering.answer_numeric(user, question, form.cleaned_data["value"], form.cleaned_data["confidence"])
    if attempt is None:
        form.add_error("value", check.error)
    return attempt


@login_required
def attempt(request, slug, pk):
    attempt = get_object_or_404(
        Attempt.objects.select_related("question"), pk=pk, question__in=Question.objects.public(), question__slug=slug, user=request.user
    )
    question = attempt.question
    context = {"question": question, "attempt": attempt}
    if question.kind == Kind.CONCEPT:
        form = RubricForm(request.POST or None, rubric=question.rubric, initial={"covered": attempt.rubric_checked})
        if request.method == "POST" and form.is_valid():
            answering.score_concept_attempt(attempt, form.cleaned_data["covered"])
            messages.success(request, f"Saved: you covered {len(attempt.rubric_checked)} of {len(question.rubric)} points.")
            return redirect("questions:attempt", slug=slug, pk=pk)
        context["form"] = form
    elif question.kind == Kind.NUMERIC:
        reading = to_question_unit(attempt.numeric_input, question.answer_unit)
        context["converted_value"], context["unit_read"] = reading.value, reading.unit_read
        slip = unit_slip(reading.value, question.answer_value, question.tolerance)
        context["unit_slip"] = slip_words(slip) if slip else ""
    return render(request, "questions/attempt.html", context)


@require_POST
def save_draft(request, slug):
    """Autosave target for a concept answer or an exercise's code (fetch POST, JSON reply)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in to save drafts."}, status=403)
    question = get_object_or_404(Question.objects.public().live(), slug=slug, kind__in=(Kind.CONCEPT, Kind.CODING))
    try:
        draft = drafts.save_draft(request.user, question, request.POST.get("text", ""))
    except answering.UnstorableAnswer as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse({"saved": True, "updated_at": draft.updated_at.isoformat()})


@login_required
def progress(request):
    user = request.user
    calibration = user_calibration(user)
    context = {
        "attempts": coverage.recent_attempts(user),
        "submissions": coverage.recent_submissions(user),
        "coverage": coverage.coverage_by_topic(user),
        "calibration": calibration,
        "calibration_chart": {
            "labels": [str(level.confidence) for level in calibration.levels],
            "mean_scores": [level.mean_score for level in calibration.levels],
            "expected": [level.expected_score for level in calibration.levels],
            "counts": [level.count for level in calibration.levels],
        },
    }
    return render(request, "questions/progress.html", context)


@require_POST
def preview(request):
    """Staff-only: render Markdown from the admin form as the site would show it."""
    if not (request.user.is_active and request.user.is_staff):
        return HttpResponse("Staff only.", status=403, content_type="text/plain")
    return HttpResponse(render_markdown(request.POST.get("text", "")), content_type="text/html; charset=utf-8")
