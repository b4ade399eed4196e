"""Invitations by e-mail (a colleague to an organisation, a candidate to an assessment) and the
account a candidate's link signs in.

An invitation row stores only the hash of its token; the token travels in the e-mailed link,
which works once and until the invitation expires.

Candidate accounts (the choice the issue asked us to make and document):
opening an invitation link never signs anyone in by itself. Pressing "Start"
on the invitation page
- uses the signed-in account when its e-mail is the invited address;
- asks the person to sign in first when a verified account with that e-mail
  exists (the link is not used up until they do);
- otherwise creates a lightweight account for the invited e-mail (no password,
  so it can only be used through this browser session or after a password reset
  to that e-mail) and signs it in. Candidates need no prior account.
An invitation link reaches only the invited address, so opening it verifies the
account that accepts it (accounts.verification). An unverified account that
merely claims the address (someone registered it first) blocks nobody.
"""
import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.text import slugify

from interview_platform.accounts.verification import VerificationError, mark_verified, verified_accounts

from ..models import CandidateInvitation, MemberInvitation, Membership
from .errors import SignInRequired, TeamsError


MEMBER_INVITATION_LIFETIME = timedelta(days=7)


def hash_token(token):
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token():
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def _find_by_token(model, token):
    return model.objects.filter(token_hash=hash_token(token or "")).first()


def _check_usable(invitation, now):
    if invitation.is_used:
        raise TeamsError("This invitation link has already been used. Links work once.")
    if now >= invitation.expires_at:
        raise TeamsError("This invitation link has expired. Ask the team for a new one.")


def _normalise_email(email):
    return (email or "").strip().lower()


def _issue_invitation(model, email, link_for, subject, template, context, **fields):
    """Create an invitation that stores only the hash of a fresh token, and e-mail its link.

    `link_for(token)` builds the absolute link; the template gets `context` plus the
    `invitation` and its `url`. The mail needs no on_commit here: EMAIL_BACKEND
    (interview_platform.mail) queues it once the surrounding transaction commits."""
    token, token_hash = _new_token()
    invitation = model.objects.create(email=email, token_hash=token_hash, **fields)
    url = link_for(token)
    body = render_to_string(template, {**context, "invitation": invitation, "url": url})
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
    return invitation


@transaction.atomic
def invite_member(organisation, email, role, invited_by, accept_url_for):
    """Create an invitation and e-mail it. `accept_url_for(token)` builds the absolute link."""
    email = _normalise_email(email)
    if Membership.objects.filter(organisation=organisation, user__email__iexact=email).exists():
        raise TeamsError(f"{email} is already a member of {organisation}.")
    # A fresh invitation replaces any earlier unused one to the same address.
    MemberInvitation.objects.filter(organisation=organisation, email=email, used_at__isnull=True).delete()
    return _issue_invitation(
        MemberInvitation,
        email,
        accept_url_for,
        f"Join {organisation} on Hotpath",
        "teams/email/member_invitation.txt",
        {"inviter": invited_by},
        organisation=organisation,
        role=role,
        invited_by=invited_by,
        expires_at=timezone.now() + MEMBER_INVITATION_LIFETIME,
    )


def member_invitation_for_token(token):
    return _find_by_token(MemberInvitation, token)


@transaction.atomic
def accept_member_invitation(invitation, user):
    invitation = MemberInvitation.objects.select_for_update().get(pk=invitation.pk)
    _check_usable(invitation, timezone.now())
    if _normalise_email(user.email) != invitation.email:
        raise TeamsError(
            f"This invitation is for {invitation.email}, but you are signed in as {user.email or user.username}. "
            "Sign in with the invited address to join."
        )
    membership, created = Membership.objects.get_or_create(
        user=user, organisation=invitation.organisation, defaults={"role": invitation.role}
    )
    if not created:
        raise TeamsError(f"You are already a member of {invitation.organisation}.")
    _verified_by_link(user)
    invitation.used_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["used_at", "accepted_by"])
    return membership


@transaction.atomic
def invite_candidate(assessment, email, invited_by, start_url_for):
    """Invite one candidate. The link expires when the assessment's window closes."""
    email = _normalise_email(email)
    if not assessment.is_published:
        raise TeamsError("Publish the assessment before inviting candidates.")
    if timezone.now() >= assessment.closes_at:
        raise TeamsError("The availability window has closed: candidates can no longer be invited.")
    if assessment.invitations.filter(email=email).exists():
        raise TeamsError(f"{email} has already been invited to this assessment.")
    return _issue_invitation(
        CandidateInvitation,
        email,
        start_url_for,
        f"Your Hotpath assessment from {assessment.organisation}: {assessment.title}",
        "teams/email/candidate_invitation.txt",
        {"assessment": assessment},
        assessment=assessment,
        invited_by=invited_by,
        expires_at=assessment.closes_at,
    )


@transaction.atomic
def renew_candidate_link(invitation, start_url_for):
    """A fresh link for a candidate who has not started, to hand over another way; the link
    sent before stops working. Only the token's hash is stored, so a link can be shown only
    when it is made. Returns `start_url_for(token)`."""
    invitation = CandidateInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.is_used:
        raise TeamsError(f"{invitation.email} has already started: their link is used up.")
    if timezone.now() >= invitation.expires_at:
        raise TeamsError(f"The link for {invitation.email} has expired with the availability window.")
    token, invitation.token_hash = _new_token()
    invitation.save(update_fields=["token_hash"])
    return start_url_for(token)


def candidate_invitation_for_token(token):
    return _find_by_token(CandidateInvitation, token)


def check_can_start(invitation, now=None):
    """Raise TeamsError saying why this invitation cannot start a sitting now."""
    now = now or timezone.now()
    _check_usable(invitation, now)
    assessment = invitation.assessment
    if not assessment.is_published:
        raise TeamsError("This assessment is not available yet.")
    if now < assessment.opens_at:
        raise TeamsError(f"This assessment opens at {timezone.localtime(assessment.opens_at):%Y-%m-%d %H:%M %Z}.")
    if now >= assessment.closes_at:
        raise TeamsError("This assessment has closed.")


def _verified_by_link(user):
    """The invitation link was mailed to the user's address: opening it proves they read it."""
    try:
        mark_verified(user)
    except VerificationError as error:
        raise TeamsError(str(error)) from None


@transaction.atomic
def candidate_account_for(invitation, current_user):
    """The account that takes this invitation, verified (see the module docstring)."""
    email = invitation.email
    if current_user.is_authenticated:
        if _normalise_email(current_user.email) != email:
            raise TeamsError(
                f"This invitation is for {email}, but you are signed in as {current_user.email or current_user.username}. "
                "Sign out, then open the link again."
            )
        _verified_by_link(current_user)
        return current_user
    if verified_accounts(email).exists():
        raise SignInRequired(
            f"An account for {email} already exists: sign in to it to start the assessment (or reset its password)."
        )
    User = get_user_model()
    local_part = slugify(email.split("@")[0])[:20] or "candidate"
    user = User(username=f"{local_part}-{get_random_string(6, 'abcdefghijklmnopqrstuvwxyz0123456789')}", email=email)
    user.set_unusable_password()
    user.save()
    _verified_by_link(user)
    return user
