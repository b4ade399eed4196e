"""The teams index, organisations and their members (any member reads; owners manage),
and joining through a member invitation."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import services
from ..access import scoped_object_or_404
from ..forms import MemberInviteForm, OrganisationForm, OrganisationTokenForm
from ..models import Membership, Role
from ..services import TeamsError
from .gates import OWNER, _organisation, _refusal


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
    return organisation_page(request, _organisation(request, org))


def organisation_page(request, organisation, token_form=None, new_token=None):
    """The organisation's page; owners also see its API tokens (a new one shown once)."""
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
        "pending_invitations": organisation.member_invitations.filter(
            used_at__isnull=True, expires_at__gt=timezone.now()
        ),
        "assessments": assessments,
        "invite_form": MemberInviteForm(),
        "api_tokens": organisation.api_tokens.all(),
        "token_form": token_form or OrganisationTokenForm(),
        "new_token": new_token,
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
    membership = scoped_object_or_404(request.user, Membership, roles=OWNER, pk=pk, organisation__slug=org)
    try:
        services.remove_member(membership, request.user)
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
