"""Team pages (organisation, assessments, reports) and the candidate's pages.

Team views fetch everything through teams.access.scoped_object_or_404; candidate
views through teams.access.candidate_session_or_404. Business rules live in
teams.services; these functions only translate between HTTP and those."""
import io

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from grader.services import gpu_worker_online
from grader.states import Status
from interview_platform.figures import times
from grader.timings import timings_response
from questions.models import Kind

from . import reports, services
from .access import candidate_session_or_404, scoped_object_or_404
from .forms import (
    AddQuestionForm,
    AssessmentForm,
    CandidateInviteForm,
    CodeForm,
    ExtraTimeForm,
    MemberInviteForm,
    OrganisationForm,
    ReviewForm,
)
from .models import (
    Answer,
    Assessment,
    AssessmentItem,
    CandidateInvitation,
    CandidateSession,
    FinishReason,
    Membership,
    Organisation,
    Role,
    SessionSubmission,
)
from .services import SignInRequired, TeamsError

OWNER = {Role.OWNER}


def _organisation(request, org, roles=frozenset(Role.values)):
    return scoped_object_or_404(request.user, Organisation, roles=roles, slug=org)


def _assessment(request, org, pk, roles=frozenset(Role.values)):
    return scoped_object_or_404(
        request.user, Assessment.objects.select_related("organisation"), roles=roles, pk=pk, organisation__slug=org
    )


def _refusal(request, error, target):
    messages.error(request, error.message)
    return redirect(target)


# Organisations ------------------------------------------------------------------------------------


@login_required
def index(request):
    memberships = request.user.memberships.select_related("organisation").annotate(
        assessment_count=Count("organisation__assessments")
    )
    sessions = request.user.candidate_sessions.select_related("assessment__organisation")
    for session in sessions:
        services.finalise_if_expired(session)
    return render(request, "teams/index.html", {"memberships": memberships, "sessions": sessions})


@login_required
def create_organisation(request):
    form = OrganisationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        organisation = services.create_organisation(request.user, form.cleaned_data["name"])
        messages.success(request, f"{organisation} created. You are its owner.")
        return redirect(organisation)
    return render(request, "teams/organisation_form.html", {"form": form})


@login_required
def organisation(request, org):
    organisation = _organisation(request, org)
    membership = Membership.objects.get(user=request.user, organisation=organisation)
    assessments = organisation.assessments.annotate(
        invited=Count("invitations", distinct=True),
        finished=Count("sessions", filter=Q(sessions__finished_at__isnull=False), distinct=True),
    )
    context = {
        "organisation": organisation,
        "membership": membership,
        "is_owner": membership.role == Role.OWNER,
        "members": organisation.memberships.select_related("user"),
        "pending_invitations": organisation.member_invitations.filter(used_at__isnull=True, expires_at__gt=timezone.now()),
        "assessments": assessments,
        "invite_form": MemberInviteForm(),
    }
    return render(request, "teams/organisation.html", context)


@login_required
@require_POST
def invite_member(request, org):
    organisation = _organisation(request, org, OWNER)
    form = MemberInviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter a valid e-mail address and role.")
        return redirect(organisation)
    try:
        services.invite_member(
            organisation,
            form.cleaned_data["email"],
            form.cleaned_data["role"],
            request.user,
            lambda token: request.build_absolute_uri(reverse("teams:join", args=[token])),
        )
    except TeamsError as error:
        return _refusal(request, error, organisation)
    messages.success(request, f"Invitation sent to {form.cleaned_data['email']}.")
    return redirect(organisation)


@login_required
@require_POST
def remove_member(request, org, pk):
    membership = scoped_object_or_404(
        request.user, Membership, roles=OWNER, pk=pk, organisation__slug=org
    )
    try:
        services.remove_member(membership)
    except TeamsError as error:
        return _refusal(request, error, membership.organisation)
    messages.success(request, f"{membership.user.username} removed.")
    return redirect(membership.organisation)


def join(request, token):
    """Accept an invitation to a team. Anyone with the link sees what it is; joining needs an account."""
    invitation = services.member_invitation_for_token(token)
    if invitation is None:
        raise Http404("No such invitation.")
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            services.accept_member_invitation(invitation, request.user)
        except TeamsError as refused:
            error = refused.message
        else:
            messages.success(request, f"You joined {invitation.organisation}.")
            return redirect(invitation.organisation)
    elif invitation.is_used:
        error = "This invitation link has already been used. Links work once."
    elif invitation.is_expired:
        error = "This invitation link has expired. Ask the team for a new one."
    return render(request, "teams/join.html", {"invitation": invitation, "error": error})


# Assessments --------------------------------------------------------------------------------------


@login_required
def create_assessment(request, org):
    organisation = _organisation(request, org, OWNER)
    form = AssessmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        assessment = form.save(commit=False)
        assessment.organisation = organisation
        assessment.created_by = request.user
        assessment.save()
        messages.success(request, "Assessment created. Add questions, then publish it.")
        return redirect(assessment)
    return render(request, "teams/assessment_form.html", {"form": form, "organisation": organisation})


@login_required
def edit_assessment(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    form = AssessmentForm(request.POST or None, instance=assessment)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Assessment saved.")
        return redirect(assessment)
    return render(
        request, "teams/assessment_form.html", {"form": form, "organisation": assessment.organisation, "assessment": assessment}
    )


@login_required
def assessment(request, org, pk):
    assessment = _assessment(request, org, pk)
    membership = Membership.objects.get(user=request.user, organisation=assessment.organisation)
    invitations = assessment.invitations.select_related("session").order_by("email")
    for invitation in invitations:
        session = getattr(invitation, "session", None)
        if session:
            services.finalise_if_expired(session)
    context = {
        "assessment": assessment,
        "organisation": assessment.organisation,
        "is_owner": membership.role == Role.OWNER,
        "items": assessment.items.select_related("question", "exercise_version"),
        "invitations": invitations,
        "add_form": AddQuestionForm(),
        "invite_form": CandidateInviteForm(),
        "extra_time_form": ExtraTimeForm(),
        "now": timezone.now(),
    }
    return render(request, "teams/assessment.html", context)


@login_required
@require_POST
def add_question(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    form = AddQuestionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a question from the list.")
        return redirect(assessment)
    try:
        item = services.add_question(assessment, form.cleaned_data["question"], form.cleaned_data["target_speedup"])
    except TeamsError as error:
        return _refusal(request, error, assessment)
    messages.success(request, f"Added “{item.question}” as question {item.number}.")
    if item.is_coding and item.question.current_exercise().target == "gpu" and not gpu_worker_online():
        messages.warning(request, NO_GPU_WORKER_WARNING)
    return redirect(assessment)


NO_GPU_WORKER_WARNING = (
    "That question runs on a GPU, and no GPU worker is online right now: a candidate's code for it would wait "
    "ungraded until one connects. Start a GPU worker before candidates sit the assessment, or choose a CPU exercise."
)


def _item(request, org, pk, item_pk):
    return scoped_object_or_404(
        request.user,
        AssessmentItem.objects.select_related("assessment__organisation"),
        roles=OWNER,
        pk=item_pk,
        assessment__pk=pk,
        assessment__organisation__slug=org,
    )


@login_required
@require_POST
def remove_item(request, org, pk, item_pk):
    item = _item(request, org, pk, item_pk)
    try:
        services.remove_item(item)
    except TeamsError as error:
        return _refusal(request, error, item.assessment)
    return redirect(item.assessment)


@login_required
@require_POST
def move_item(request, org, pk, item_pk):
    item = _item(request, org, pk, item_pk)
    offset = {"up": -1, "down": 1}.get(request.POST.get("direction"))
    if offset is None:
        messages.error(request, "Move a question up or down.")
        return redirect(item.assessment)
    try:
        services.move_item(item, offset)
    except TeamsError as error:
        return _refusal(request, error, item.assessment)
    return redirect(item.assessment)


@login_required
@require_POST
def publish(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    try:
        services.publish_assessment(assessment)
    except TeamsError as error:
        return _refusal(request, error, assessment)
    messages.success(request, "Published. Coding questions are pinned to their current versions; you can invite candidates.")
    return redirect(assessment)


@login_required
@require_POST
def invite_candidates(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    form = CandidateInviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["emails"]))
        return redirect(assessment)
    sent, refused = [], []
    for email in form.cleaned_data["emails"]:
        try:
            services.invite_candidate(
                assessment,
                email,
                request.user,
                lambda token: request.build_absolute_uri(reverse("teams:candidate_start", args=[token])),
            )
        except TeamsError as error:
            refused.append(error.message)
        else:
            sent.append(email)
    if sent:
        messages.success(request, f"Invitations sent to {', '.join(sent)}.")
    for message in refused:
        messages.error(request, message)
    return redirect(assessment)


@login_required
@require_POST
def extra_time(request, org, invitation_pk):
    invitation = scoped_object_or_404(
        request.user,
        CandidateInvitation.objects.select_related("assessment__organisation"),
        roles=OWNER,
        pk=invitation_pk,
        assessment__organisation__slug=org,
    )
    form = ExtraTimeForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["minutes"]))
        return redirect(invitation.assessment)
    try:
        services.grant_extra_time(invitation, form.cleaned_data["minutes"])
    except TeamsError as error:
        return _refusal(request, error, invitation.assessment)
    messages.success(request, f"{form.cleaned_data['minutes']} extra minutes granted to {invitation.email}.")
    return redirect(invitation.assessment)


# Reports ------------------------------------------------------------------------------------------


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
    )


@login_required
def candidate_report(request, org, session_pk):
    session = _team_session(request, org, session_pk)
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
        "organisation": session.assessment.organisation,
        "report": candidate,
        "rows": rows,
    }
    return render(request, "teams/candidate_report.html", context)


@require_GET
@login_required
def submission_timings(request, org, session_pk, submission_pk):
    """Every timed call behind a candidate's figures, for the team to check them."""
    session = _team_session(request, org, session_pk)
    link = get_object_or_404(
        SessionSubmission.objects.select_related("submission__exercise__question"), session=session, submission_id=submission_pk
    )
    return timings_response(link.submission)


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


# Candidates ---------------------------------------------------------------------------------------


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
            user = services.candidate_account_for(invitation, request.user)
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
        {"invitation": invitation, "assessment": invitation.assessment, "error": error},
        status=410 if error and (invitation.is_used or invitation.is_expired) else 200,
    )


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
    answered |= set(session.session_submissions.values_list("item_id", flat=True))
    answer = session.answers.filter(item=item).first()
    submissions = [link.submission for link in session.session_submissions.filter(item=item).select_related("submission")]
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
        "submissions": submissions,
        "code_form": CodeForm(initial={"code": last_code}) if item.is_coding else None,
        "previous_number": number - 1 if number > 1 else None,
        "next_number": number + 1 if number < len(items) else None,
        "seconds_left": max(int((session.deadline - timezone.now()).total_seconds()), 0),
    }
    return render(request, "teams/take_question.html", context)


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
    try:
        services.submit_code(session, item, form.cleaned_data["code"])
    except TeamsError as error:
        messages.error(request, error.message)
        return redirect("teams:take", session.pk)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(here)
    messages.success(request, "Submitted for grading. The result appears below when it is ready.")
    return redirect(here + "#submissions")


@login_required
def submission_status(request, session_pk, number):
    """What the candidate's coding panel polls while a submission is grading."""
    session, item = _session_and_item(request, session_pk, number)
    links = session.session_submissions.filter(item=item).select_related("submission")
    rows = [
        {
            "id": link.submission.pk,
            "status": link.submission.status,
            "final": link.submission.status in Status.FINAL,
            "verdict": link.submission.verdict,
            "verdict_label": link.submission.verdict_label,
            "speedup": link.submission.speedup,
            "speedup_label": times(link.submission.speedup) if link.submission.speedup else "",
            "message": link.submission.message,
            # What the row's Feedback cell shows: the message, and a traceback or the line at fault.
            "feedback_html": render_to_string("teams/_feedback.html", {"submission": link.submission}),
        }
        for link in links
    ]
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
    return render(request, "teams/done.html", {"session": session, "assessment": session.assessment})

