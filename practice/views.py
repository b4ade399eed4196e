"""The pages that show practice on the bank: the home page's tracks, the list with
practice counts, a question's page (its answer form and, once earned, the editorial),
a track, and the progress page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.views.decorators.cache import never_cache

from questions.forms import ConceptAnswerForm, NumericAnswerForm
from questions.models import Attempt, Kind
from questions.services import answering, browsing, drafts
from questions.services.calibration import user_calibration

from . import browse as browse_list
from . import progress as practice_progress
from . import tracks
from .editorial import editorial_for

CODING_PANEL_TEMPLATE = "submissions/coding_panel.html"


def home(request):
    """The home page: what the bank holds, where to start, and the tracks with the learner's progress."""
    summary = browsing.bank_summary()
    tracks_with_progress = tracks.all_tracks(request.user)
    context = {"counts": summary.counts, "first_question": summary.first_question, "tracks": tracks_with_progress}
    return render(request, "home.html", context)


def browse(request):
    context = {"browse": browse_list.browse_questions(request.GET), "orders": browsing.ORDERS}
    return render(request, "practice/browse.html", context)


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
            refusal = "This question cannot be answered here." if user.is_authenticated else "Sign in to practise."
            messages.error(request, refusal)
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
        context["editorial"] = editorial_for(user, question)
        if _coding_panel_exists():
            context["coding_panel_template"] = CODING_PANEL_TEMPLATE
    return render(request, "practice/detail.html", context)


def _record_answer(question, user, form):
    """Returns the new attempt, or None with the problem added to the form."""
    answer = form.cleaned_data
    if question.kind == Kind.CONCEPT:
        return answering.reveal_concept_answer(user, question, answer["answer"], answer["confidence"])
    attempt, check = answering.answer_numeric(user, question, answer["value"], answer["confidence"])
    if attempt is None:
        form.add_error("value", check.error)
    return attempt


def track(request, slug):
    progress = tracks.track_progress(slug, request.user)
    if progress is None:
        raise Http404("No such track.")
    return render(request, "practice/track.html", {"progress": progress})


@login_required
def progress(request):
    user = request.user
    calibration = user_calibration(user)
    context = {
        "attempts": practice_progress.recent_attempts(user),
        "submissions": practice_progress.recent_submissions(user),
        "coverage": practice_progress.coverage_by_topic(user),
        "calibration": calibration,
        "calibration_chart": {
            "labels": [str(level.confidence) for level in calibration.levels],
            "mean_scores": [level.mean_score for level in calibration.levels],
            "expected": [level.expected_score for level in calibration.levels],
            "counts": [level.count for level in calibration.levels],
        },
    }
    return render(request, "practice/progress.html", context)
