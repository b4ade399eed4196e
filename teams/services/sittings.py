"""A candidate's sitting: starting, answering, submitting code, finishing, extra time, review.

Timing: the clock starts when the candidate presses Start (CandidateSession.
started_at). The deadline is started_at + time limit + any extra time. The
availability window only decides when a candidate may start; a session started
before closes_at runs its full time.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from submissions.models import Purpose
from submissions.services.intake import check_submission_rate, create_submission
from submissions.states import Status, Verdict
from questions.models import Kind
from questions.numeric import check_numeric

from .. import webhooks
from ..models import (
    Answer,
    AuditAction,
    CandidateInvitation,
    CandidateSession,
    FinishReason,
    Membership,
    Role,
    SessionSubmission,
)
from . import audit
from .errors import SessionClosed, TeamsError
from .invitations import check_can_start


MAX_EXTRA_MINUTES = 24 * 60


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


@transaction.atomic
def start_session(invitation, user, now=None):
    """Use the invitation up and start the clock."""
    now = now or timezone.now()
    invitation = CandidateInvitation.objects.select_for_update().select_related("assessment").get(pk=invitation.pk)
    check_can_start(invitation, now)
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    session = CandidateSession.objects.create(
        invitation=invitation, assessment=invitation.assessment, candidate=user, started_at=now
    )
    webhooks.sitting_started(session)
    return session


@transaction.atomic
def finish_session(session, reason, now=None):
    """Close the sitting once; a second call (e.g. the periodic task racing the
    candidate's Submit button) changes nothing. Closing it tells the team: an e-mail
    (tell_team_of_finish) and the webhook events (teams.webhooks.sitting_finished)."""
    updated = CandidateSession.objects.filter(pk=session.pk, finished_at__isnull=True).update(
        finished_at=now or timezone.now(), finish_reason=reason
    )
    session.refresh_from_db(fields=["finished_at", "finish_reason"])
    if updated:
        tell_team_of_finish(session)
        webhooks.sitting_finished(session)
    return bool(updated)


def team_recipients(assessment):
    """The addresses told when a candidate finishes: the assessment's author and the organisation's owners."""
    owners = Membership.objects.filter(organisation_id=assessment.organisation_id, role=Role.OWNER).select_related(
        "user"
    )
    people = [assessment.created_by, *(membership.user for membership in owners)]
    return sorted({person.email for person in people if person is not None and person.email and person.is_active})


def tell_team_of_finish(session):
    """E-mail the team that a candidate's sitting closed (queued on commit by EMAIL_BACKEND); a
    practice sitting is the candidate's own: the team is not told."""
    assessment = session.assessment
    recipients = [] if session.is_practice else team_recipients(assessment)
    if not recipients:
        return
    report_path = reverse("teams:candidate_report", args=[assessment.organisation.slug, session.pk])
    body = render_to_string(
        "teams/email/sitting_finished.txt", {"session": session, "assessment": assessment, "report_path": report_path}
    )
    subject = f"{session.invitation.email} finished “{assessment.title}”"
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, recipients)


def finalise_if_expired(session, now=None):
    """Finalisation on read: a sitting past its deadline is closed the moment anyone looks at it."""
    now = now or timezone.now()
    if not session.is_finished and session.is_past_deadline(now):
        return finish_session(session, FinishReason.EXPIRED, now=session.deadline)
    return False


def finalise_expired_sessions(now=None):
    """Close every sitting whose deadline has passed. Returns how many it closed."""
    now = now or timezone.now()
    open_sessions = CandidateSession.objects.filter(finished_at__isnull=True).select_related("assessment", "invitation")
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
    if "\x00" in (text or ""):
        raise TeamsError("Answers cannot contain NUL characters.")  # PostgreSQL text cannot hold them
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
def submit_code(session, item, code, quick_check=False):
    """Grade a coding answer through the normal pipeline, as an assessment submission
    (never ranked publicly), against the version pinned at publication. A quick check
    (when the owner allows it) runs the small inputs for correctness only: it is
    linked to the sitting for the candidate to see, and never scored (reports)."""
    ensure_accepting_answers(session)
    if item.assessment_id != session.assessment_id or not item.is_coding:
        raise TeamsError("That question does not take code.")
    if quick_check and not session.assessment.allow_quick_check:
        raise TeamsError("This assessment does not offer quick checks: submit for grading instead.")
    check_submission_rate(session.candidate)
    purpose = Purpose.ASSESSMENT_CHECK if quick_check else Purpose.ASSESSMENT
    submission = create_submission(session.candidate, item.exercise_version, code, purpose=purpose)
    SessionSubmission.objects.create(session=session, item=item, submission=submission)
    return submission


@transaction.atomic
def grade_again(session, submission, actor):
    """Another grading of a candidate's accepted answer, asked for by the team once
    the sitting is over: the grader's message may say the machine was busy and that
    grading again gives steadier figures. It is the same code, so the report counts
    it with the earlier gradings by their middle one (reports.ItemResult): grading
    again steadies the figure, it cannot lift it by luck. `actor` is the member asking."""
    finalise_if_expired(session)
    if not session.is_finished:
        raise TeamsError("Grade again once the sitting is over: until then only the candidate submits.")
    link = (
        SessionSubmission.objects.select_related("item__exercise_version")
        .filter(session=session, submission=submission, submission__purpose=Purpose.ASSESSMENT)
        .first()
    )
    if link is None or submission.verdict != Verdict.ACCEPTED:
        raise TeamsError("Only an accepted answer of this sitting has figures to grade again.")
    if SessionSubmission.objects.filter(session=session, item=link.item, submission__status__in=Status.ACTIVE).exists():
        raise TeamsError("A grading of this answer is still running: the report updates when it is done.")
    try:
        again = create_submission(
            session.candidate, link.item.exercise_version, submission.code, purpose=Purpose.ASSESSMENT
        )
    except ValidationError as error:
        if error.code == "too_many_queued":
            # The queue cap counts the candidate's account, which has work of its own waiting.
            raise TeamsError(
                "The candidate's account has gradings waiting already: grade again once they are done."
            ) from None
        raise TeamsError(" ".join(error.messages)) from None
    SessionSubmission.objects.create(session=session, item=link.item, submission=again)
    audit.record(
        session.assessment.organisation,
        actor,
        AuditAction.GRADED_AGAIN,
        submission,
        target_label=f"{session.invitation.email}'s question {link.item.number}",
        detail=f"new grading #{again.pk}",
    )
    return again


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
