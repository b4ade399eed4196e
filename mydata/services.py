"""A person's own data: everything they did, as JSON or CSV, and closing the account.

Closing deletes the person's own data and keeps, under the nameless account, only what
another party has a claim to: what a hiring team holds from a sitting (the candidate session,
its answers and assessment submissions belong to the team's assessment) and the team records
of what they did as a member; and an interview room shared with another person, which that
person keeps without the closed account's notes, rubric marks or authorship of its edits.
close_account's docstring has the whole list."""

import csv
import io
import json

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from leaderboards.models import TopicScore, UserScore
from mock_interviews.models import MockInterview
from questions.models import Attempt, Draft
from submissions.models import Purpose, Submission
from teams.models import Answer, CandidateSession, Organisation, Role, SittingKind, SittingSignal

#: What a person exports and what closing removes: their own practice. Assessment
#: submissions stay with the hiring team's report (and are not exported: the team's questions).
OWN_PURPOSES = (Purpose.PRACTICE, Purpose.QUICK_CHECK)
SUBMISSION_COLUMNS = (
    "id",
    "exercise",
    "exercise_version",
    "purpose",
    "status",
    "verdict",
    "speedup",
    "speedup_ci_low",
    "speedup_ci_high",
    "peak_memory_bytes",
    "reference_peak_memory_bytes",
    "hardware",
    "created_at",
    "finished_at",
    "custom_input",
    "code",
)
ANSWER_COLUMNS = (
    "id",
    "question",
    "answer_text",
    "numeric_input",
    "numeric_correct",
    "rubric_checked",
    "confidence",
    "score",
    "created_at",
)


def own_submissions(user):
    return (
        Submission.objects.filter(user=user, purpose__in=OWN_PURPOSES)
        .select_related("exercise__question")
        .order_by("created_at", "id")
    )


def _submission_row(submission):
    return {
        "id": submission.pk,
        "exercise": submission.exercise.question.slug,
        "exercise_version": submission.exercise.number,
        "purpose": submission.purpose,
        "status": submission.status,
        "verdict": submission.verdict,
        "speedup": submission.speedup,
        "speedup_ci_low": submission.speedup_ci_low,
        "speedup_ci_high": submission.speedup_ci_high,
        "peak_memory_bytes": submission.peak_memory_bytes,
        "reference_peak_memory_bytes": submission.reference_peak_memory_bytes,
        "hardware": submission.hardware,
        "created_at": submission.created_at.isoformat(),
        "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
        # "Run my input": the size, seed or arguments the learner gave (null on every other
        # submission); the run's result, both answers and both call times, is the report's custom_input.
        "custom_input": submission.custom_input,
        "code": submission.code,
    }


def _answer_row(attempt):
    return {
        "id": attempt.pk,
        "question": attempt.question.slug,
        "answer_text": attempt.answer_text,
        "numeric_input": attempt.numeric_input,
        "numeric_correct": attempt.numeric_correct,
        "rubric_checked": attempt.rubric_checked,
        "confidence": attempt.confidence,
        "score": attempt.score,
        "created_at": attempt.created_at.isoformat(),
    }


def answers(user):
    return Attempt.objects.filter(user=user).select_related("question").order_by("created_at", "id")


def _mock_interview_row(interview):
    return {
        "minutes": interview.minutes,
        "topics": interview.topics,
        "difficulty": interview.difficulty,
        "started_at": interview.started_at.isoformat(),
        "finished_at": interview.finished_at.isoformat() if interview.finished_at else None,
        "finish_reason": interview.finish_reason,
        "questions": [
            {
                "question": item.question.slug,
                "seen_before": item.seen_before,
                "text": item.text,
                "numeric_input": item.numeric_input,
                "confidence": item.confidence,
                "answer": item.attempt_id,
                "submissions": sorted(submission.pk for submission in item.submissions.all()),
            }
            for item in interview.items.all()
        ],
    }


def mock_interviews(user):
    return (
        MockInterview.objects.filter(user=user)
        .order_by("started_at", "id")
        .prefetch_related("items__question", "items__submissions")
    )


def _rubric_marks(question, marks):
    """Each rubric point of `question` in order with the interviewer's mark: 0 not met, 1 partly,
    2 met, None when unmarked (rooms.models.RubricMark; `marks` keyed by the point's index)."""
    marks = marks or {}
    return [{"point": point, "mark": marks.get(str(index))} for index, point in enumerate(question.rubric or [])]


def _room_questions(room, user, is_interviewer):
    """Every question the room was on, in order, the current one last: its exercise, its final
    code, its versions in the step log, the interviewer's marks (for the interviewer only) and
    the gradings `user` started on it (after the room moved on to it, before it moved on again)."""
    past = sorted(room.past_questions.all(), key=lambda item: item.first_version)
    stretches = [
        (
            item.question,
            item.exercise,
            item.text,
            item.rubric_marks,
            item.first_version,
            item.last_version,
            item.left_at,
        )
        for item in past
    ]
    first = past[-1].last_version + 1 if past else 0
    stretches.append((room.question, room.exercise, room.text, room.rubric_marks, first, room.version, None))
    mine = [grading for grading in room.gradings.all() if grading.started_by_id == user.pk]
    parts, since = [], None
    for number, (question, exercise, text, marks, first_version, last_version, left_at) in enumerate(stretches, 1):
        parts.append(
            {
                "number": number,
                "exercise": question.slug,
                "exercise_version": exercise.number,
                "first_version": first_version,
                "last_version": last_version,
                "left_at": left_at.isoformat() if left_at else None,
                "program": text,
                "rubric_marks": _rubric_marks(question, marks) if is_interviewer else None,
                "gradings": sorted(
                    grading.submission_id
                    for grading in mine
                    if (since is None or grading.created_at >= since)
                    and (left_at is None or grading.created_at < left_at)
                ),
            }
        )
        since = left_at
    return parts


def _room_row(room, user):
    is_interviewer = room.interviewer_id == user.pk
    return {
        "role": "interviewer" if is_interviewer else "candidate",
        "kind": room.kind,  # "peer": a half of a peer interview, where each learner interviewed once
        # The question the room is on (or ended on); "questions" has every question it was on.
        "exercise": room.question.slug,
        "exercise_version": room.exercise.number,
        "state": room.state,
        "opened_at": room.created_at.isoformat(),
        "ended_at": room.ended_at.isoformat() if room.ended_at else None,
        "program": room.text,
        # The notes and the rubric marks are the interviewer's own, never shown to the candidate.
        "notes": room.notes if is_interviewer else None,
        "rubric_marks": _rubric_marks(room.question, room.rubric_marks) if is_interviewer else None,
        "gradings": sorted(g.submission_id for g in room.gradings.all() if g.started_by_id == user.pk),
        "questions": _room_questions(room, user, is_interviewer),
    }


def interview_rooms(user):
    """The live interview rooms `user` opened or joined, oldest first. Read through the account's
    reverse relations (rooms_led, rooms_joined): rooms sits on mydata's layer, which it may not import."""
    led = user.rooms_led.all()
    joined = user.rooms_joined.exclude(interviewer=user)
    rooms = [
        room
        for query in (led, joined)
        for room in query.select_related("question", "exercise").prefetch_related(
            "gradings", "past_questions__question", "past_questions__exercise"
        )
    ]
    return sorted(rooms, key=lambda room: (room.created_at, room.pk))


def _iso(moment):
    return moment.isoformat() if moment else None


def access_tokens(user):
    """The person's API tokens, oldest first: what tells them apart (name, scope, the first
    characters), never the token or its hash."""
    return [
        {
            "name": token.name,
            "scope": token.scope,
            "prefix": token.prefix,
            "created_at": _iso(token.created_at),
            "expires_at": _iso(token.expires_at),
            "last_used_at": _iso(token.last_used_at),
            "revoked_at": _iso(token.revoked_at),
        }
        for token in user.access_tokens.order_by("created_at", "id")
    ]


def team_memberships(user):
    """The hiring teams the person is a member of, with their role and when they joined."""
    return [
        {
            "organisation": membership.organisation.name,
            "role": membership.role,
            "joined_at": _iso(membership.created_at),
        }
        for membership in user.memberships.select_related("organisation").order_by("created_at", "id")
    ]


def sign_in_identities(user):
    """The single sign-on identities linked to the account: the organisation's provider and the
    subject (the provider's stable name for the person) that signs in to it. Read through the
    reverse relation: sso sits on mydata's layer."""
    return [
        {
            "organisation": identity.provider.organisation.name,
            "issuer": identity.provider.issuer,
            "subject": identity.subject,
            "linked_at": _iso(identity.created_at),
        }
        for identity in user.provider_identities.select_related("provider__organisation").order_by("created_at", "id")
    ]


def export(user):
    """Everything the person did, as one JSON-ready dict (submissions with their full reports);
    the README's "Your data" lists its parts."""
    profile = getattr(user, "profile", None)
    return {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "display_name": profile.display_name if profile else "",
            "show_on_leaderboards": profile.show_on_leaderboards if profile else False,
            "verified_email": profile.verified_email if profile else "",
        },
        "access_tokens": access_tokens(user),
        "team_memberships": team_memberships(user),
        "sign_in_identities": sign_in_identities(user),
        "answers": [_answer_row(attempt) for attempt in answers(user)],
        "drafts": [
            {"question": draft.question.slug, "text": draft.text, "updated_at": draft.updated_at.isoformat()}
            for draft in Draft.objects.filter(user=user).select_related("question")
        ],
        "submissions": [
            {**_submission_row(s), "message": s.message, "report": s.report} for s in own_submissions(user)
        ],
        "mock_interviews": [_mock_interview_row(interview) for interview in mock_interviews(user)],
        "interview_rooms": [_room_row(room, user) for room in interview_rooms(user)],
    }


def _csv(columns, rows):
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def submissions_csv(user):
    """One row per submission (the report's headline figures; the full reports are in the JSON).
    custom_input is the JSON text of the input a "Run my input" check ran on, blank otherwise."""
    rows = (_submission_row(s) for s in own_submissions(user))
    return _csv(
        SUBMISSION_COLUMNS,
        (
            {**row, "custom_input": "" if row["custom_input"] is None else json.dumps(row["custom_input"])}
            for row in rows
        ),
    )


def answers_csv(user):
    return _csv(ANSWER_COLUMNS, (_answer_row(attempt) for attempt in answers(user)))


def organisations_only_they_own(user):
    """Hiring teams that would be left with no owner if this person left."""
    owned = user.memberships.filter(role=Role.OWNER).values("organisation_id")
    # Counted apart from the filter above: on one join the count would see only this person's row.
    return (
        Organisation.objects.filter(pk__in=owned)
        .annotate(owners=Count("memberships", filter=Q(memberships__role=Role.OWNER)))
        .filter(owners=1)
        .order_by("name")
    )


#: rooms.models.RoomState.ENDED, by value: rooms sits on mydata's layer, which it may not import.
ROOM_ENDED = "ended"


def _leave_rooms(user, now):
    """The interview rooms `user` led, joined or was invited to, as closing leaves them.

    A room no one else is in (nobody joined the closing interviewer's room) is deleted with its
    step log, gradings and past questions. A room shared with another person stays theirs with
    its code and step log: it ends if still open (no one is left to interview or to end it),
    the closed account's edits lose their author, and where the closed account interviewed its
    notes and rubric marks (the current question's and every past one's) are cleared. The room's
    interviewer, candidate and invitee stay on the nameless account, so the report still reads
    as an interview between two people. Read through the account's reverse relations: rooms
    sits on mydata's layer."""
    rooms = {
        room.pk: room
        for query in (user.rooms_led, user.rooms_joined, user.rooms_invited_to)
        for room in query.order_by("pk")
    }
    for room in rooms.values():
        other = room.candidate_id if room.interviewer_id == user.pk else room.interviewer_id
        if other is None:
            room.delete()
            continue
        room.steps.filter(author=user).update(author=None)
        if room.state != ROOM_ENDED:
            room.state, room.ended_at = ROOM_ENDED, now
        if room.interviewer_id == user.pk:
            room.notes, room.rubric_marks = "", {}
            room.past_questions.update(rubric_marks={})
        room.save(update_fields=["state", "ended_at", "notes", "rubric_marks"])


def _empty_practice_sittings(user):
    """Delete what `user` did in their practice sittings (teams.services.practice: never scored
    or shown to the team): answers, submissions and integrity signals. The sessions stay, empty:
    the team's candidate report says whether the candidate took one."""
    practice = CandidateSession.objects.filter(candidate=user, kind=SittingKind.PRACTICE)
    Submission.objects.filter(assessment_link__session__in=practice).delete()  # and their links
    Answer.objects.filter(session__in=practice).delete()
    SittingSignal.objects.filter(session__in=practice).delete()


@transaction.atomic
def close_account(user):
    """Remove the person's own data and identity; keep what another party has a claim to.

    Deleted: mock interviews, practice submissions and quick checks (with their leaderboard
    entries, and the room gradings they are), leaderboard scores, answers, drafts, what they did
    in practice sittings, API tokens, team memberships, single sign-on identities, group
    memberships and permissions, the profile (display name, verified address), and interview
    rooms no one else is in. Kept, pointing at the nameless account: what hiring teams hold from
    sittings (candidate sessions, their answers and assessment submissions); interview rooms
    shared with another person, as _leave_rooms leaves them; and the records that name the
    account as the one who acted (a team's assessments, invitations, tokens, webhooks, reviews
    and audit log, whose entries keep the username they were written with; bank authoring
    events; author validations; admin log entries). All of it in one transaction.

    The User row stays, inactive and nameless, only because those records point at it.
    Refused (ValidationError) while the person is the only owner of a hiring team."""
    sole = list(organisations_only_they_own(user).values_list("name", flat=True))
    if sole:
        raise ValidationError(
            f"You are the only owner of {', '.join(sole)}: make someone else an owner (or delete the team) first.",
            code="sole_owner",
        )
    MockInterview.objects.filter(user=user).delete()  # its items hold answers as typed
    own_submissions(user).delete()  # their leaderboard entries and room gradings go with them (CASCADE)
    UserScore.objects.filter(user=user).delete()
    TopicScore.objects.filter(user=user).delete()
    Attempt.objects.filter(user=user).delete()
    Draft.objects.filter(user=user).delete()
    _leave_rooms(user, timezone.now())
    _empty_practice_sittings(user)
    user.access_tokens.all().delete()
    user.memberships.all().delete()
    user.provider_identities.all().delete()
    user.groups.clear()
    user.user_permissions.clear()
    if hasattr(user, "profile"):
        user.profile.delete()
    user.username = f"deleted-{user.pk}"
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
