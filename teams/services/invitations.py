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

Which link verifies an address: the team sees every candidate link (the assessment
page shows it to copy, and a new one replaces it), so the token alone proves nothing
about who reads the invited mailbox. The mailed link also carries a mailbox proof
(an HMAC of the token's hash and the address, `mailbox_proof`) that only the mail
holds; opening a link with it verifies the account that accepts it, unless that
account is a member of the inviting organisation (a team never verifies an address
for itself). Without it the sitting starts all the same, on an unverified account.
An unverified account that merely claims the address blocks nobody. A member
invitation's link is only ever mailed, so accepting it verifies the address.
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
from django.utils.crypto import constant_time_compare, get_random_string, salted_hmac
from django.utils.http import urlencode
from django.utils.text import slugify

from accounts.verification import VerificationError, verified_accounts, verify_mailed_address

from ..models import AuditAction, CandidateInvitation, MemberInvitation, Membership
from . import audit
from .errors import SignInRequired, TeamsError


MEMBER_INVITATION_LIFETIME = timedelta(days=7)
#: The mailed candidate link's query parameter that holds its mailbox proof.
MAILBOX_PARAMETER = "mailbox"


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


def mailbox_proof(invitation):
    """What only the invitation's mail carries beside its token (see the module docstring).
    Bound to the token's hash, so a new link for the invitation voids the mailed proof."""
    message = f"{invitation.token_hash}:{invitation.email}"
    return salted_hmac("teams.invitation-mailbox", message, algorithm="sha256").hexdigest()


def _with_mailbox_proof(url, invitation):
    return f"{url}?{urlencode({MAILBOX_PARAMETER: mailbox_proof(invitation)})}"


def _proves_mailbox(invitation, proof):
    return constant_time_compare(proof or "", mailbox_proof(invitation))


def _issue_invitation(model, email, link_for, subject, template, context, proof_in_mail=False, **fields):
    """Create an invitation that stores only the hash of a fresh token, and e-mail its link.

    `link_for(token)` builds the absolute link; the template gets `context` plus the
    `invitation` and its `url`, which carries the mailbox proof when `proof_in_mail`.
    The mail needs no on_commit here: EMAIL_BACKEND (interview_platform.mail) queues it
    once the surrounding transaction commits."""
    token, token_hash = _new_token()
    invitation = model.objects.create(email=email, token_hash=token_hash, **fields)
    url = link_for(token)
    if proof_in_mail:
        url = _with_mailbox_proof(url, invitation)
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
    invitation = _issue_invitation(
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
    audit.record(
        organisation, invited_by, AuditAction.MEMBER_INVITED, invitation, target_label=email, detail=f"as {role}"
    )
    return invitation


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
    _verified_by_link(user, invitation.email)
    invitation.used_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["used_at", "accepted_by"])
    audit.record(invitation.organisation, user, AuditAction.MEMBER_JOINED, user, detail=f"as {membership.role}")
    return membership


@transaction.atomic
def invite_candidate(assessment, email, actor, start_url_for):
    """Invite one candidate; `actor` is the user or organisation token inviting. The link
    expires when the assessment's window closes."""
    email = _normalise_email(email)
    if not assessment.is_published:
        raise TeamsError("Publish the assessment before inviting candidates.")
    if timezone.now() >= assessment.closes_at:
        raise TeamsError("The availability window has closed: candidates can no longer be invited.")
    if assessment.invitations.filter(email=email).exists():
        raise TeamsError(f"{email} has already been invited to this assessment.")
    invitation = _issue_invitation(
        CandidateInvitation,
        email,
        start_url_for,
        f"Your Hotpath assessment from {assessment.organisation}: {assessment.title}",
        "teams/email/candidate_invitation.txt",
        {"assessment": assessment},
        proof_in_mail=True,
        assessment=assessment,
        invited_by=audit.actor_user(actor),
        expires_at=assessment.closes_at,
    )
    audit.record(
        assessment.organisation,
        actor,
        AuditAction.CANDIDATE_INVITED,
        invitation,
        target_label=email,
        detail=f"to “{assessment.title}”",
    )
    return invitation


@transaction.atomic
def renew_candidate_link(invitation, start_url_for):
    """A fresh link for a candidate who has not started, to hand over another way; the link
    sent before stops working. Only the token's hash is stored, so a link can be shown only
    when it is made. Returns `start_url_for(token)`: the team's copy, with no mailbox proof."""
    invitation = CandidateInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.is_used:
        raise TeamsError(f"{invitation.email} has already started: their link is used up.")
    if timezone.now() >= invitation.expires_at:
        raise TeamsError(f"The link for {invitation.email} has expired with the availability window.")
    token, invitation.token_hash = _new_token()
    invitation.save(update_fields=["token_hash"])
    return start_url_for(token)


@transaction.atomic
def revoke_candidate_invitation(invitation, actor):
    """Withdraw an invitation whose candidate has not started: the row goes, so its link
    stops working and the address may be invited again. A started sitting is kept."""
    invitation = CandidateInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.is_used:
        raise TeamsError(f"{invitation.email} has already started: a started sitting cannot be revoked.")
    audit.record(
        invitation.assessment.organisation,
        actor,
        AuditAction.CANDIDATE_REVOKED,
        invitation,
        target_label=invitation.email,
        detail=f"from “{invitation.assessment.title}”",
    )
    invitation.delete()


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


def _verified_by_link(user, address):
    """A link mailed to `address` was opened by the owner of `user`: they read it."""
    try:
        verify_mailed_address(user, address)
    except VerificationError as error:
        raise TeamsError(str(error)) from None


def _verifies_address(invitation, user, proof):
    """Whether accepting this invitation with this mailbox proof verifies `user`'s address."""
    in_inviting_team = Membership.objects.filter(
        user=user, organisation_id=invitation.assessment.organisation_id
    ).exists()
    return _proves_mailbox(invitation, proof) and not in_inviting_team


@transaction.atomic
def candidate_account_for(invitation, current_user, proof=""):
    """The account that takes this invitation; verified when `proof` (the link's mailbox
    parameter) shows its opener reads the invited mailbox (see the module docstring)."""
    email = invitation.email
    if current_user.is_authenticated:
        if _normalise_email(current_user.email) != email:
            raise TeamsError(
                f"This invitation is for {email}, but you are signed in as {current_user.email or current_user.username}. "
                "Sign out, then open the link again."
            )
        if _verifies_address(invitation, current_user, proof):
            _verified_by_link(current_user, email)
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
    if _verifies_address(invitation, user, proof):
        _verified_by_link(user, email)
    return user
