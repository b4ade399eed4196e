"""Building an assessment, inviting candidates (and showing their links once, to copy) and
granting extra time (members read; owners change)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from submissions.services.gpu_workers import gpu_worker_online

from .. import services
from ..access import scoped_object_or_404
from ..forms import AddQuestionForm, AssessmentForm, CandidateInviteForm, ExtraTimeForm
from ..models import AssessmentItem, CandidateInvitation, Membership, Role
from ..services import TeamsError
from .gates import OWNER, _assessment, _organisation, _refusal


@login_required
def create_assessment(request, org):
    organisation = _organisation(request, org, OWNER)
    form = AssessmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        assessment = services.create_assessment(form.save(commit=False), organisation, request.user)
        messages.success(request, "Assessment created. Add questions, then publish it.")
        return redirect(assessment)
    return render(request, "teams/assessment_form.html", {"form": form, "organisation": organisation})


@login_required
def edit_assessment(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    form = AssessmentForm(request.POST or None, instance=assessment)
    if request.method == "POST" and form.is_valid():
        services.save_assessment(form.save(commit=False), form.changed_data, request.user)
        messages.success(request, "Assessment saved.")
        return redirect(assessment)
    return render(
        request,
        "teams/assessment_form.html",
        {"form": form, "organisation": assessment.organisation, "assessment": assessment},
    )


@login_required
def assessment(request, org, pk):
    return _assessment_page(request, _assessment(request, org, pk))


def _assessment_page(request, assessment, invite_form=None):
    """The assessment's page; `invite_form`, a refused invitation form, keeps what was typed."""
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
        "invite_form": invite_form or CandidateInviteForm(),
        "extra_time_form": ExtraTimeForm(),
        "now": timezone.now(),
        "fresh_links": _take_fresh_links(request, assessment) if membership.role == Role.OWNER else [],
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
        services.publish_assessment(assessment, request.user)
    except TeamsError as error:
        return _refusal(request, error, assessment)
    messages.success(
        request, "Published. Coding questions are pinned to their current versions; you can invite candidates."
    )
    return redirect(assessment)


#: The links just made, kept in the owner's session until the assessment page shows them once.
FRESH_LINKS_KEY = "teams:fresh-invitation-links"


def _start_url(request, made=None):
    """Builds a candidate's start link from a token; each link built is appended to `made`."""

    def start_url(token):
        url = request.build_absolute_uri(reverse("teams:candidate_start", args=[token]))
        if made is not None:
            made.append(url)
        return url

    return start_url


def _keep_fresh_links(request, assessment, links):
    request.session[FRESH_LINKS_KEY] = {"assessment": assessment.pk, "links": links}


def _take_fresh_links(request, assessment):
    """The [email, url] pairs made a moment ago for this assessment, once: only the tokens'
    hashes are stored, so this page view is the one chance to copy them."""
    kept = request.session.get(FRESH_LINKS_KEY)
    if not kept or kept.get("assessment") != assessment.pk:
        return []
    del request.session[FRESH_LINKS_KEY]
    return kept["links"]


@login_required
@require_POST
def invite_candidates(request, org, pk):
    assessment = _assessment(request, org, pk, OWNER)
    form = CandidateInviteForm(request.POST)
    if not form.is_valid():
        # Shown again with the list as typed (a redirect lost it) and the error beside it.
        messages.error(request, " ".join(form.errors["emails"]) + " Nothing was sent: correct the list below.")
        return _assessment_page(request, assessment, invite_form=form)
    links, refused, made = [], [], []
    start_url = _start_url(request, made)
    for email in form.cleaned_data["emails"]:
        try:
            invitation = services.invite_candidate(assessment, email, request.user, start_url)
        except TeamsError as error:
            refused.append(error.message)
        else:
            links.append([invitation.email, made[-1]])
    if links:
        messages.success(request, f"Invitations sent to {', '.join(email for email, _ in links)}.")
        _keep_fresh_links(request, assessment, links)
    for message in refused:
        messages.error(request, message)
    return redirect(f"{assessment.get_absolute_url()}#invitation-links" if links else assessment)


@login_required
@require_POST
def candidate_link(request, org, invitation_pk):
    """A new link for a candidate who has not started (the one sent stops working), to copy."""
    invitation = _invitation(request, org, invitation_pk)
    try:
        url = services.renew_candidate_link(invitation, _start_url(request))
    except TeamsError as error:
        return _refusal(request, error, invitation.assessment)
    _keep_fresh_links(request, invitation.assessment, [[invitation.email, url]])
    messages.success(request, f"A new link for {invitation.email}: the one sent before no longer works.")
    return redirect(f"{invitation.assessment.get_absolute_url()}#invitation-links")


def _invitation(request, org, invitation_pk):
    return scoped_object_or_404(
        request.user,
        CandidateInvitation.objects.select_related("assessment__organisation"),
        roles=OWNER,
        pk=invitation_pk,
        assessment__organisation__slug=org,
    )


@login_required
@require_POST
def extra_time(request, org, invitation_pk):
    invitation = _invitation(request, org, invitation_pk)
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
