"""The practice sitting: before starting the real assessment, a candidate may sit a short
sample of it from the start page, with the same pages, editor, timer and rules (deadline,
autosave, quick check, submit).

What it is made of: each real assessment gets, the first time a candidate asks, a practice
assessment (`Assessment.practice_for`) of PRACTICE_MINUTES with one coding exercise and one
numeric question from the public bank: live, easy, graded on the CPU and not among the real
assessment's questions. The default manager hides practice assessments from every team page,
list and API lookup. A candidate's practice sitting is a CandidateSession of kind PRACTICE on
its own practice invitation (same address, no link is ever sent), so the real invitation
stays unused and its clock unstarted.

What it never does: count. It is never scored or reported, never compared for copies, never
announced by webhook nor e-mailed to the team (teams.webhooks and sittings.tell_team_of_finish
skip it); the real candidate report only says whether the candidate took it.

Rules: one practice sitting per candidate and assessment, refused once the real sitting
started, and only while the real invitation could start.
"""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from questions.models import Difficulty, Kind, Question

from ..models import Assessment, AssessmentItem, CandidateInvitation, CandidateSession, SittingKind
from .errors import TeamsError
from .invitations import check_can_start, hash_token

PRACTICE_MINUTES = 10

PRACTICE_INSTRUCTIONS = (
    "A practice sitting: the same editor, timer and rules as the real assessment, with sample questions from "
    "the public bank. Nothing here is scored or shown to the team. Submit when you are done, then go back to "
    "your invitation link to start the real assessment."
)


def _practice_questions(assessment):
    """One easy public coding exercise graded on the CPU and one easy public numeric question, neither
    among `assessment`'s questions; raise TeamsError when the bank has none to offer."""
    taken = assessment.items.values("question_id")
    candidates = Question.objects.public().live().filter(difficulty=Difficulty.EASY).exclude(pk__in=taken)
    coding = next(
        (
            question
            for question in candidates.filter(kind=Kind.CODING).order_by("slug")
            if (version := question.current_exercise()) is not None and version.target == "cpu"
        ),
        None,
    )
    numeric = candidates.filter(kind=Kind.NUMERIC).order_by("slug").first()
    if coding is None or numeric is None:
        raise TeamsError("No practice sitting is available for this assessment.")
    return [coding, numeric]


def practice_assessment_for(assessment, now=None):
    """The practice assessment of a real, published `assessment`, built on first use."""
    now = now or timezone.now()
    with transaction.atomic():
        assessment = Assessment.objects.select_for_update().get(pk=assessment.pk)
        existing = Assessment.with_practice.filter(practice_for=assessment).first()
        if existing is not None:
            return existing
        practice = Assessment.with_practice.create(
            organisation=assessment.organisation,
            practice_for=assessment,
            title=f"Practice sitting: {assessment.title}",
            instructions=PRACTICE_INSTRUCTIONS,
            time_limit_minutes=PRACTICE_MINUTES,
            opens_at=now,
            closes_at=assessment.closes_at,
            published_at=now,
            show_verdicts=True,
            show_tracebacks=True,
            allow_quick_check=True,
        )
        for position, question in enumerate(_practice_questions(assessment)):
            AssessmentItem.objects.create(
                assessment=practice,
                question=question,
                position=position,
                exercise_version=question.current_exercise() if question.kind == Kind.CODING else None,
            )
        return practice


def check_can_practise(invitation, now=None):
    """Raise TeamsError saying why this invitation's candidate cannot start a practice sitting now."""
    if CandidateSession.objects.filter(invitation=invitation).exists():
        raise TeamsError("The real assessment has started: the practice sitting is no longer available.")
    check_can_start(invitation, now)
    if took_practice(invitation):
        raise TeamsError("You have already taken the practice sitting for this assessment.")
    if not Assessment.with_practice.filter(practice_for=invitation.assessment_id).exists():
        _practice_questions(invitation.assessment)  # raises when the bank has no sample to offer


def took_practice(invitation):
    """Whether the candidate invited by `invitation` started its assessment's practice sitting."""
    return CandidateSession.objects.filter(
        kind=SittingKind.PRACTICE, assessment__practice_for=invitation.assessment_id, invitation__email=invitation.email
    ).exists()


@transaction.atomic
def start_practice(invitation, user, now=None):
    """Start `user`'s practice sitting before the real one of `invitation`, which stays unused."""
    now = now or timezone.now()
    invitation = CandidateInvitation.objects.select_for_update().select_related("assessment").get(pk=invitation.pk)
    check_can_practise(invitation, now)
    practice = practice_assessment_for(invitation.assessment, now)
    practice_invitation = CandidateInvitation.objects.create(
        assessment=practice,
        email=invitation.email,
        token_hash=hash_token(secrets.token_urlsafe(32)),  # never sent: the sitting is reached from the real link
        expires_at=now + timedelta(minutes=PRACTICE_MINUTES),
        used_at=now,
    )
    return CandidateSession.objects.create(
        invitation=practice_invitation, assessment=practice, candidate=user, started_at=now, kind=SittingKind.PRACTICE
    )
