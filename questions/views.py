"""The pure question pages: a recorded attempt, a draft's autosave, the staff preview.
The pages that show practice (the list, a question, tracks, progress) are practice.views."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .forms import RubricForm
from .models import Attempt, Kind, Question
from .numeric import slip_words, to_question_unit, unit_slip
from .rendering import render_markdown
from .services import answering, drafts


@login_required
def attempt(request, slug, pk):
    attempt = get_object_or_404(
        Attempt.objects.select_related("question"),
        pk=pk,
        question__in=Question.objects.public(),
        question__slug=slug,
        user=request.user,
    )
    question = attempt.question
    context = {"question": question, "attempt": attempt}
    if question.kind == Kind.CONCEPT:
        form = RubricForm(request.POST or None, rubric=question.rubric, initial={"covered": attempt.rubric_checked})
        if request.method == "POST" and form.is_valid():
            answering.score_concept_attempt(attempt, form.cleaned_data["covered"])
            messages.success(
                request, f"Saved: you covered {len(attempt.rubric_checked)} of {len(question.rubric)} points."
            )
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


@require_POST
def preview(request):
    """Staff-only: render Markdown from the admin form as the site would show it."""
    if not (request.user.is_active and request.user.is_staff):
        return HttpResponse("Staff only.", status=403, content_type="text/plain")
    return HttpResponse(render_markdown(request.POST.get("text", "")), content_type="text/html; charset=utf-8")
