"""The candidate's side of a sitting: the invitation link, the questions, saving answers,
submitting code, finishing. Every page is gated by teams.access.candidate_session_or_404
(the session's own candidate, while it is open)."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from questions.models import Kind
from submissions.figures import times
from submissions.models import Purpose
from submissions.states import Status

from .. import services
from ..access import candidate_session_or_404
from ..forms import CodeForm
from ..models import CandidateSession, FinishReason
from ..services import SessionClosed, SignInRequired, TeamsError, integrity, practice


def candidate_start(request, token):
    """The invitation link. GET describes the assessment (e-mail scanners that follow
    links do not use it up); POST starts the clock."""
    invitation = services.candidate_invitation_for_token(token)
    if invitation is None:
        raise Http404("No such invitation.")
    existing = CandidateSession.objects.filter(invitation=invitation, candidate__pk=request.user.pk).first()
    if existing:
        return redirect("teams:take", existing.pk)
    error = None
    try:
        services.check_can_start(invitation)
    except TeamsError as refused:
        error = refused.message
    if request.method == "POST" and error is None:
        try:
            # The mailbox proof stays in the URL: the page's form posts back to it, and so does sign-in's ?next=.
            user = services.candidate_account_for(
                invitation, request.user, request.GET.get(services.MAILBOX_PARAMETER, "")
            )
        except SignInRequired as sign_in:
            messages.info(request, sign_in.message)
            return redirect_to_login(request.get_full_path())
        except TeamsError as refused:
            error = refused.message
        else:
            try:
                session = services.start_session(invitation, user)
            except TeamsError as refused:
                error = refused.message
            else:
                if not request.user.is_authenticated:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect("teams:take", session.pk)
    return render(
        request,
        "teams/candidate_start.html",
        {
            "invitation": invitation,
            "assessment": invitation.assessment,
            "error": error,
            "block_practice": settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING,
            "practice_url": (
                _keeping_query(request, reverse("teams:practice_start", args=[token]))
                if error is None and _can_practise(invitation)
                else None
            ),
            "practice_minutes": practice.PRACTICE_MINUTES,
        },
        status=410 if error and (invitation.is_used or invitation.is_expired) else 200,
    )


#: The Django session key holding, per practice sitting, the invitation link it was started from.
PRACTICE_RETURN_KEY = "teams.practice_return"


def _keeping_query(request, path):
    """`path` with this request's query string, which holds the link's mailbox proof."""
    query = request.GET.urlencode()
    return f"{path}?{query}" if query else path


def _can_practise(invitation):
    try:
        practice.check_can_practise(invitation)
    except TeamsError:
        return False
    return True


@require_POST
def practice_start(request, token):
    """Start a practice sitting from the invitation's start page; the invitation stays unused."""
    invitation = services.candidate_invitation_for_token(token)
    if invitation is None:
        raise Http404("No such invitation.")
    start_page = _keeping_query(request, reverse("teams:candidate_start", args=[token]))
    try:
        practice.check_can_practise(invitation)  # before an account is made for the address
        user = services.candidate_account_for(invitation, request.user, request.GET.get(services.MAILBOX_PARAMETER, ""))
        session = practice.start_practice(invitation, user)
    except SignInRequired as sign_in:
        messages.info(request, sign_in.message)
        return redirect_to_login(start_page)
    except TeamsError as refused:
        messages.error(request, refused.message)
        return redirect(start_page)
    if not request.user.is_authenticated:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[PRACTICE_RETURN_KEY] = {**request.session.get(PRACTICE_RETURN_KEY, {}), str(session.pk): start_page}
    return redirect("teams:take", session.pk)


def _session_and_item(request, session_pk, number):
    session = candidate_session_or_404(request.user, session_pk)
    item = session.assessment.items.select_related("question", "exercise_version").filter(position=number - 1).first()
    if item is None:
        raise Http404("No such question in this assessment.")
    return session, item


@login_required
def take(request, session_pk):
    session = candidate_session_or_404(request.user, session_pk)
    services.finalise_if_expired(session)
    if session.is_finished:
        return redirect("teams:done", session.pk)
    return redirect("teams:take_question", session.pk, 1)


@login_required
def take_question(request, session_pk, number):
    session, item = _session_and_item(request, session_pk, number)
    services.finalise_if_expired(session)
    if session.is_finished:
        return redirect("teams:done", session.pk)
    items = list(session.assessment.items.select_related("question"))
    # A coding item's saved text is its code as typed: answered once something is submitted.
    written = session.answers.exclude(text="", numeric_input="").exclude(item__question__kind=Kind.CODING)
    answered = set(written.values_list("item_id", flat=True))
    graded = session.session_submissions.filter(submission__purpose=Purpose.ASSESSMENT)  # a quick check answers nothing
    answered |= set(graded.values_list("item_id", flat=True))
    answer = session.answers.filter(item=item).first()
    submissions = [
        link.submission for link in session.session_submissions.filter(item=item).select_related("submission")
    ]
    last_code = submissions[-1].code if submissions else (item.exercise_version.starter_code if item.is_coding else "")
    if item.is_coding and answer is not None and answer.text:
        last_code = answer.text  # the code as last typed, kept as the candidate went
    context = {
        "session": session,
        "assessment": session.assessment,
        "item": item,
        "items": items,
        "answered": answered,
        "answer": answer,
        "rows": [_candidate_row(session.assessment, submission) for submission in submissions],
        "code_form": CodeForm(initial={"code": last_code}) if item.is_coding else None,
        "previous_number": number - 1 if number > 1 else None,
        "next_number": number + 1 if number < len(items) else None,
        "seconds_left": max(int((session.deadline - timezone.now()).total_seconds()), 0),
    }
    return render(request, "teams/take_question.html", context)


def _candidate_row(assessment, submission):
    """What the candidate may see of one submission in the sitting, as the owner chose: a
    quick check always shows its result (that is what it is for), a graded submission only
    with results on; a traceback only where the result shows and tracebacks are on."""
    is_check = submission.purpose == Purpose.ASSESSMENT_CHECK
    result = is_check or assessment.show_verdicts
    if result and submission.verdict_label:
        label = submission.verdict_label
    else:
        label = "Graded" if submission.is_final else submission.get_status_display()
    return {
        "submission": submission,
        "is_check": is_check,
        "kind": "Quick check" if is_check else "Graded",
        "result": result,
        "label": label,
        "speedup": submission.speedup if result and not is_check else None,
        "traceback": result and assessment.show_tracebacks,
    }


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def save_answer(request, session_pk, number):
    session, item = _session_and_item(request, session_pk, number)
    try:
        answer, message = services.save_answer(
            session, item, text=request.POST.get("text"), numeric_input=request.POST.get("numeric_input")
        )
    except TeamsError as error:
        if _wants_json(request):
            return JsonResponse({"saved": False, "error": error.message}, status=409)
        messages.error(request, error.message)
        return redirect("teams:take", session.pk)
    if _wants_json(request):
        return JsonResponse({"saved": True, "saved_at": answer.updated_at.isoformat(), "message": message})
    if message:
        messages.warning(request, message)
    return redirect("teams:take_question", session.pk, number)


@login_required
@require_POST
def submit_code(request, session_pk, number):
    session, item = _session_and_item(request, session_pk, number)
    form = CodeForm(request.POST)
    here = reverse("teams:take_question", args=[session.pk, number])
    if not form.is_valid():
        messages.error(request, "Write some code before submitting.")
        return redirect(here)
    quick_check = request.POST.get("purpose") == "check"
    try:
        services.submit_code(session, item, form.cleaned_data["code"], quick_check=quick_check)
    except TeamsError as error:
        messages.error(request, error.message)
        return redirect("teams:take", session.pk)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(here)
    if quick_check:
        messages.success(
            request, "Quick check started: small inputs, correctness only, never scored. Its result appears below."
        )
    else:
        messages.success(request, "Submitted for grading. The result appears below when it is ready.")
    return redirect(here + "#submissions")


@login_required
def submission_status(request, session_pk, number):
    """What the candidate's coding panel polls while a submission is grading."""
    session, item = _session_and_item(request, session_pk, number)
    links = session.session_submissions.filter(item=item).select_related("submission")
    rows = []
    for link in links:
        row = _candidate_row(session.assessment, link.submission)
        submission = link.submission
        rows.append(
            {
                "id": submission.pk,
                "status": submission.status,
                "final": submission.status in Status.FINAL,
                "quick_check": row["is_check"],
                "verdict": submission.verdict if row["result"] else "",
                "verdict_label": row["label"],
                "speedup": row["speedup"],
                "speedup_label": times(row["speedup"]) if row["speedup"] else "",
                "message": submission.message if row["result"] else "",
                # What the row's Feedback cell shows: the message, and a traceback or the line at fault.
                "feedback_html": render_to_string("teams/_feedback.html", {"row": row}),
            }
        )
    return JsonResponse({"submissions": rows})


@login_required
@require_POST
def finish(request, session_pk):
    session = candidate_session_or_404(request.user, session_pk)
    if not services.finalise_if_expired(session):
        services.finish_session(session, FinishReason.SUBMITTED)
    return redirect("teams:done", session.pk)


@login_required
def done(request, session_pk):
    session = candidate_session_or_404(request.user, session_pk)
    services.finalise_if_expired(session)
    if not session.is_finished:
        return redirect("teams:take", session.pk)
    context = {
        "session": session,
        "assessment": session.assessment,
        "start_page": request.session.get(PRACTICE_RETURN_KEY, {}).get(str(session.pk)),
    }
    return render(request, "teams/done.html", context)


#: A batch of events: a few snapshots of the largest code a submission may hold, and change.
MAX_SIGNAL_BODY_BYTES = 3 * settings.SUBMISSION_MAX_BYTES + 16 * 1024


@login_required
@require_POST
def record_signals(request, session_pk):
    """The candidate's browser reports pastes, leaving the page and code snapshots
    (services.integrity): JSON {"events": [...]}, CSRF-checked, from the sitting's own
    candidate while it is open. 400 for a malformed batch, 409 once the sitting is
    over, 413 for a body too large, 429 past TEAMS_SIGNAL_RATE."""
    session = candidate_session_or_404(request.user, session_pk)
    if int(request.headers.get("Content-Length") or 0) > MAX_SIGNAL_BODY_BYTES:
        return JsonResponse({"error": f"At most {MAX_SIGNAL_BODY_BYTES:,} bytes a request."}, status=413)
    if is_ratelimited(
        request,
        group="teams.signals",
        key=lambda group, request: str(session.pk),
        rate=settings.TEAMS_SIGNAL_RATE,
        increment=True,
    ):
        return JsonResponse({"error": "Too many event reports: wait a moment."}, status=429)
    try:
        payload = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return JsonResponse({"error": "The body is not JSON."}, status=400)
    events = payload.get("events") if isinstance(payload, dict) else None
    try:
        stored = integrity.record_browser_events(session, events)
    except SessionClosed as closed:
        return JsonResponse({"error": closed.message}, status=409)
    except TeamsError as bad:
        return JsonResponse({"error": bad.message}, status=400)
    return JsonResponse({"stored": stored})
