"""Submission pages: submit, the live submission page, its JSON status, its timings download, my list."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from urllib.parse import urlencode

from questions.models import Kind, Question
from questions.services.answering import UnstorableAnswer
from questions.services.drafts import save_draft
from questions.text import unix_newlines

from . import comparison, speed
from .services import gpu_workers, intake, listing, queueing
from .models import SITTING_PURPOSES, Purpose, Submission
from .states import Verdict

SUBMISSIONS_PER_PAGE = 50
from .timings import timings_response

#: What a browser sends when the bytes it was given were not UTF-8: Django decodes
#: form data leniently, turning each bad byte into U+FFFD.
REPLACEMENT_CHARACTER = "\ufffd"
#: The HTTP status of a refused submission, by the ValidationError's code (otherwise 400).
REFUSAL_STATUS = {"rate_limited": 429, "unverified": 403}
#: The exercise form's "Run my input" button: a quick check on the input in the form's input_* fields.
CUSTOM_INPUT = "custom"


def _visible_submission(request, pk):
    """The submission if the user owns it or is staff; 404 otherwise, so others
    cannot even learn that it exists. A candidate's submissions in a sitting are shown on
    the sitting's pages, as the assessment's owner allows, not here."""
    submission = get_object_or_404(Submission.objects.select_related("exercise__question", "user"), pk=pk)
    mine = submission.user_id == request.user.pk and submission.purpose not in SITTING_PURPOSES
    if not mine and not request.user.is_staff:
        raise Http404("No such submission")
    return submission


def _submission_context(submission):
    return {
        "submission": submission,
        "question": submission.exercise.question,
        "report": submission.report or {},
        "waiting_for_gpu": gpu_workers.waiting_for_gpu(submission),
        "progress": queueing.submission_progress(submission),
        "against_previous": comparison.against_previous(submission) if submission.is_final else None,
        "can_grade_again": submission.is_final and intake.can_grade_again(submission),
        # Faster, not faster, or the starter unchanged (submissions.speed): the page words the figure by it.
        "speed": speed.submission_speed(submission) if submission.is_final else None,
    }


@require_POST
@login_required
def submit(request, slug):
    """The exercise form's post: a practice grading, a quick check, or a quick check on the
    learner's own input ("Run my input": purpose `custom`, with the input_size, input_seed and
    input_args fields), then its page; asked for JSON (Accept: application/json), the new
    submission's addresses or the refusal instead."""
    question = get_object_or_404(Question.objects.public().live(), slug=slug, kind=Kind.CODING)
    exercise = question.current_exercise()
    if exercise is None:
        raise Http404("This exercise has no published version")
    code = request.POST.get("code", "")
    _keep_draft(request.user, question, code)
    sent_purpose = request.POST.get("purpose")
    custom = sent_purpose == CUSTOM_INPUT
    purpose = Purpose.QUICK_CHECK if custom or sent_purpose == Purpose.QUICK_CHECK else Purpose.PRACTICE
    error = None
    if REPLACEMENT_CHARACTER in code:
        error, status = (
            "Your code contains bytes that are not valid UTF-8 (shown as \ufffd). Fix them and submit again.",
            400,
        )
    else:
        try:
            custom_input = (
                intake.custom_input_from_form(*(request.POST.get(f"input_{name}") for name in ("size", "seed", "args")))
                if custom
                else None
            )
            submission = intake.submit_practice(
                request.user, exercise, code, purpose=purpose, custom_input=custom_input
            )
        except ValidationError as exc:
            error, status = " ".join(exc.messages), REFUSAL_STATUS.get(exc.code, 400)
    wants_json = "application/json" in request.headers.get("Accept", "")
    if error:
        if wants_json:  # the exercise page's quick check (static/js/quick-check.js) shows it in place
            return JsonResponse({"error": error}, status=status)
        context = {"question": question, "exercise": exercise, "code": code, "error": error}
        return render(request, "submissions/submit.html", context, status=status)
    if wants_json:
        status_url = reverse("submissions:status", args=[submission.pk])
        return JsonResponse(
            {"id": submission.pk, "url": submission.get_absolute_url(), "status_url": status_url}, status=201
        )
    return redirect(submission)


def _keep_draft(user, question, code):
    """What was sent stays in the editor when the learner comes back (Back, or the
    exercise's link), whatever becomes of the submission."""
    try:
        save_draft(user, question, unix_newlines(code))
    except UnstorableAnswer:
        pass  # too long or holding NUL: the submission is refused too, and says why


def _own_submission(request, pk):
    """One of the user's own submissions outside a sitting, or 404 (staff included: these act on its owner's behalf)."""
    return get_object_or_404(
        Submission.objects.select_related("exercise__question").exclude(purpose__in=SITTING_PURPOSES),
        pk=pk,
        user=request.user,
    )


@require_POST
@login_required
def edit_again(request, pk):
    """Put one of the user's own submissions back into the exercise's editor."""
    submission = _own_submission(request, pk)
    question = submission.exercise.question
    _keep_draft(request.user, question, submission.code)
    return redirect(f"{question.get_absolute_url()}#code-editor")


@require_POST
@login_required
def grade_again(request, pk):
    """Another grading of the same code (intake.grade_again); a refusal comes back as a message on the page."""
    submission = _own_submission(request, pk)
    try:
        again = intake.grade_again(request.user, submission)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(submission)
    return redirect(again)


@login_required
def detail(request, pk):
    submission = _visible_submission(request, pk)
    return render(request, "submissions/detail.html", _submission_context(submission))


@require_GET
@login_required
def status(request, pk):
    submission = _visible_submission(request, pk)
    context = _submission_context(submission)
    data = {
        "id": submission.pk,
        "status": submission.status,
        "status_label": submission.get_status_display(),
        "is_final": submission.is_final,
        "verdict": submission.verdict,
        "verdict_label": submission.verdict_label,
        "waiting_for_gpu": context["waiting_for_gpu"],
        "progress": context["progress"],
    }
    if submission.is_final:
        data["report_html"] = render_to_string("submissions/_report.html", context, request=request)
    return JsonResponse(data)


@require_GET
@login_required
def timings(request, pk):
    """Every timed call behind the figures, as a JSON download."""
    return timings_response(_visible_submission(request, pk))


@login_required
def submission_list(request):
    """My submissions, newest first, filtered by exercise, kind and verdict, a page at a time."""
    chosen = {name: request.GET.get(name, "") for name in ("exercise", "purpose", "verdict")}
    mine = Submission.objects.filter(user=request.user).exclude(purpose__in=SITTING_PURPOSES)
    submissions = listing.filter_submissions(mine, **chosen)
    context = {
        "page_obj": Paginator(submissions, SUBMISSIONS_PER_PAGE).get_page(request.GET.get("page")),
        "chosen": chosen,
        "exercises": Question.objects.filter(exercise_versions__submissions__in=mine).distinct().order_by("title"),
        "purposes": _purposes_to_filter(mine),
        "verdicts": Verdict.CHOICES,
        "query": urlencode({name: value for name, value in chosen.items() if value}),
    }
    return render(request, "submissions/list.html", context)


def _purposes_to_filter(mine):
    """The kinds My submissions offers to filter by: what a learner sends (practice, quick check),
    and any other kind only when these submissions hold one (an author's validation runs)."""
    held = set(mine.values_list("purpose", flat=True).distinct())
    return [(value, label) for value, label in Purpose.choices if value in intake.WEB_PURPOSES or value in held]
