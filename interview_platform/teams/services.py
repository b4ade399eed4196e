"""What hiring teams and candidates do, as functions the views call.

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

Timing: the clock starts when the candidate presses Start (CandidateSession.
started_at). The deadline is started_at + time limit + any extra time. The
availability window only decides when a candidate may start; a session started
before closes_at runs its full time.
"""
import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.text import slugify

from grader.models import Purpose
from grader.services import check_submission_rate, create_submission
from interview_platform.accounts.verification import VerificationError, mark_verified, verified_accounts
from questions.models import Kind
from questions.numeric import check_numeric

from .models import (
    Answer,
    AssessmentItem,
    CandidateInvitation,
    CandidateSession,
    FinishReason,
    MemberInvitation,
    Membership,
    Organisation,
    Role,
    SessionSubmission,
)

MEMBER_INVITATION_LIFETIME = timedelta(days=7)
MAX_EXTRA_MINUTES = 24 * 60


class TeamsError(Exception):
    """A refusal with a message written for the person who asked."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class SessionClosed(TeamsError):
    """The candidate's time is up (or they already submitted)."""


class SignInRequired(TeamsError):
    """An account with the invited e-mail exists: its owner must sign in."""


# Tokens ---------------------------------------------------------------------------------------------


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


# Organisations and members --------------------------------------------------------------------------


def _unique_slug(name):
    base = slugify(name)[:50] or "team"
    slug = base
    while Organisation.objects.filter(slug=slug).exists():
        slug = f"{base}-{get_random_string(4, 'abcdefghijklmnopqrstuvwxyz0123456789')}"
    return slug


@transaction.atomic
def create_organisation(user, name):
    organisation = Organisation.objects.create(name=name.strip(), slug=_unique_slug(name))
    Membership.objects.create(user=user, organisation=organisation, role=Role.OWNER)
    return organisation


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
def remove_member(membership):
    owners = Membership.objects.select_for_update().filter(organisation=membership.organisation, role=Role.OWNER)
    if membership.role == Role.OWNER and owners.count() == 1:
        raise TeamsError("An organisation needs at least one owner: make someone else an owner first.")
    membership.delete()


# Assessments ----------------------------------------------------------------------------------------


def _require_draft(assessment):
    if assessment.is_published:
        raise TeamsError("This assessment is published: its questions can no longer change.")


@transaction.atomic
def add_question(assessment, question, target_speedup=None):
    _require_draft(assessment)
    if question.is_retired:
        raise TeamsError(f"“{question}” is retired and cannot be added.")
    if question.kind == Kind.CODING and question.current_exercise() is None:
        raise TeamsError(f"“{question}” has no exercise version yet.")
    if assessment.items.filter(question=question).exists():
        raise TeamsError(f"“{question}” is already in this assessment.")
    last = assessment.items.aggregate(last=Max("position"))["last"]
    return AssessmentItem.objects.create(
        assessment=assessment,
        question=question,
        position=0 if last is None else last + 1,
        target_speedup=target_speedup if question.kind == Kind.CODING else None,
    )


def _renumber(assessment):
    for position, item in enumerate(assessment.items.order_by("position", "pk")):
        if item.position != position:
            AssessmentItem.objects.filter(pk=item.pk).update(position=position)


@transaction.atomic
def remove_item(item):
    _require_draft(item.assessment)
    assessment = item.assessment
    item.delete()
    _renumber(assessment)


@transaction.atomic
def move_item(item, offset):
    """Swap `item` with its neighbour `offset` places away (-1 up, +1 down)."""
    _require_draft(item.assessment)
    neighbour = item.assessment.items.filter(position=item.position + offset).first()
    if neighbour is None:
        return
    item.position, neighbour.position = neighbour.position, item.position
    AssessmentItem.objects.filter(pk=item.pk).update(position=item.position)
    AssessmentItem.objects.filter(pk=neighbour.pk).update(position=neighbour.position)


@transaction.atomic
def publish_assessment(assessment):
    """Freeze the questions and pin each coding question to its current version."""
    _require_draft(assessment)
    items = list(assessment.items.select_related("question"))
    if not items:
        raise TeamsError("Add at least one question before publishing.")
    if assessment.closes_at <= timezone.now():
        raise TeamsError("The availability window has already closed: move “Closes at” into the future first.")
    for item in items:
        if item.is_coding:
            version = item.question.current_exercise()
            if version is None:
                raise TeamsError(f"“{item.question}” has no exercise version to pin.")
            item.exercise_version = version
            item.save(update_fields=["exercise_version"])
    assessment.published_at = timezone.now()
    assessment.save(update_fields=["published_at"])
    return assessment


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


def grant_extra_time(invitation, minutes):
    """Give one candidate more time. A sitting that ran out of time reopens when
    the new deadline is still ahead; one the candidate submitted stays closed."""
    if not 1 <= minutes <= MAX_EXTRA_MINUTES:
        raise TeamsError(f"Extra time must be between 1 and {MAX_EXTRA_MINUTES} minutes.")
    with transaction.atomic():
        invitation = CandidateInvitation.objects.select_for_update().get(pk=invitation.pk)
        invitation.extra_minutes += minutes
        invitation.save(update_fields=["extra_minutes"])
        session = CandidateSession.objects.filter(invitation=invitation).first()
        if session and session.finish_reason == FinishReason.EXPIRED and not session.is_past_deadline():
            session.finished_at = None
            session.finish_reason = ""
            session.save(update_fields=["finished_at", "finish_reason"])
    return invitation


# Candidates -----------------------------------------------------------------------------------------


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


@transaction.atomic
def start_session(invitation, user, now=None):
    """Use the invitation up and start the clock."""
    now = now or timezone.now()
    invitation = CandidateInvitation.objects.select_for_update().select_related("assessment").get(pk=invitation.pk)
    check_can_start(invitation, now)
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    return CandidateSession.objects.create(
        invitation=invitation, assessment=invitation.assessment, candidate=user, started_at=now
    )


def finish_session(session, reason, now=None):
    """Close the sitting once; a second call (e.g. the periodic task racing the
    candidate's Submit button) changes nothing."""
    updated = CandidateSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
        finished_at=now or timezone.now(), finish_reason=reason
    )
    session.refresh_from_db(fields=["finished_at", "finish_reason"])
    return bool(updated)


def finalise_if_expired(session, now=None):
    """Finalisation on read: a sitting past its deadline is closed the moment anyone looks at it."""
    now = now or timezone.now()
    if not session.is_finished and session.is_past_deadline(now):
        return finish_session(session, FinishReason.EXPIRED, now=session.deadline)
    return False


def finalise_expired_sessions(now=None):
    """Close every sitting whose deadline has passed. Returns how many it closed."""
    now = now or timezone.now()
    open_sessions = CandidateSession.objects.filter(finished_at__isnull=True).select_related(
        "assessment", "invitation"
    )
    return sum(1 for session in open_sessions.iterator() if finalise_if_expired(session, now))


def ensure_accepting_answers(session, now=None):
    now = now or timezone.now()
    finalise_if_expired(session, now)
    if session.finish_reason == FinishReason.SUBMITTED:
        raise SessionClosed("You have already submitted this assessment: answers can no longer change.")
    if session.is_finished:
        raise SessionClosed("Time is up: the assessment has been submitted with the answers saved before the deadline.")


def save_answer(session, item, *, text=None, numeric_input=None):
    """Save (autosave) a concept or numeric answer, or a coding item's code as typed
    (kept for the candidate; only submissions are graded). Returns (answer, message)
    where message explains a numeric input that could not be read."""
    ensure_accepting_answers(session)
    if item.assessment_id != session.assessment_id:
        raise TeamsError("That question does not take a written answer here.")
    if item.is_coding and len((text or "").encode()) > settings.SUBMISSION_MAX_BYTES:
        raise TeamsError(f"Your code is longer than a submission may be ({settings.SUBMISSION_MAX_BYTES:,} bytes).")
    answer, _ = Answer.objects.get_or_create(session=session, item=item)
    message = ""
    if item.question.kind == Kind.NUMERIC:
        question = item.question
        answer.numeric_input = (numeric_input or "").strip()[:100]
        check = check_numeric(
            answer.numeric_input, answer=question.answer_value, unit=question.answer_unit, tolerance=question.tolerance
        )
        answer.numeric_correct = check.correct if check.ok else None
        message = "" if check.ok or not answer.numeric_input else check.error
    else:
        answer.text = text or ""
    answer.save()
    return answer, message


@transaction.atomic
def submit_code(session, item, code):
    """Grade a coding answer through the normal pipeline, as an assessment submission
    (never ranked publicly), against the version pinned at publication."""
    ensure_accepting_answers(session)
    if item.assessment_id != session.assessment_id or not item.is_coding:
        raise TeamsError("That question does not take code.")
    check_submission_rate(session.candidate)
    submission = create_submission(session.candidate, item.exercise_version, code, purpose=Purpose.ASSESSMENT)
    SessionSubmission.objects.create(session=session, item=item, submission=submission)
    return submission


# Review ---------------------------------------------------------------------------------------------


def review_answer(answer, checked, reviewer):
    """Record which rubric points a concept answer covers."""
    rubric = answer.item.question.rubric
    try:
        indexes = sorted({int(index) for index in checked})
    except (TypeError, ValueError):
        raise ValidationError("Rubric points are given by number.") from None
    if any(not 0 <= index < len(rubric) for index in indexes):
        raise ValidationError("That rubric point does not exist.")
    answer.rubric_checked = indexes
    answer.reviewed_by = reviewer
    answer.reviewed_at = timezone.now()
    answer.save(update_fields=["rubric_checked", "reviewed_by", "reviewed_at", "updated_at"])
    return answer
