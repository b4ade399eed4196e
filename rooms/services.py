"""What a room does: open one, let the candidate in through the invitation, take edits
on the authoritative step log, grade the shared program, keep the notes and rubric marks,
move on to the next question, end it.

Every function that acts for someone takes the user and checks them against the room:
views and the websocket consumer only pass requests through. A refusal raises
RoomRefused with a message fit for the person."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from questions.models import Kind, Question
from submissions.models import Purpose
from submissions.services.intake import submit_practice

from .changes import BadChanges, apply_changes, code_units
from .models import Room, RoomGrading, RoomQuestion, RoomState, RoomStep, RubricMark

#: Steps one push may carry: an editor sends what was typed since its last confirmed push.
MAX_STEPS_PER_PUSH = 100
#: What a participant may start from the room, by the name the page sends.
GRADING_PURPOSES = {"check": Purpose.QUICK_CHECK, "practice": Purpose.PRACTICE}


class RoomRefused(Exception):
    """Something a room does not allow this person, now; str() says why."""


def live_exercises():
    """The questions a room may be on: public, live coding exercises, by title."""
    return Question.objects.public().live().filter(kind=Kind.CODING).order_by("title")


def _live_exercise(question_slug):
    """(question, its current exercise) for a live coding exercise's slug; RoomRefused otherwise."""
    question = live_exercises().filter(slug=question_slug).first()
    exercise = question.current_exercise() if question else None
    if exercise is None:
        raise RoomRefused("There is no live coding exercise by that name.")
    return question, exercise


def open_room(interviewer, question_slug):
    """A new room on a live coding exercise, its document the exercise's starter code."""
    question, exercise = _live_exercise(question_slug)
    return Room.objects.create(
        question=question, exercise=exercise, interviewer=interviewer, text=exercise.starter_code, **new_invitation()
    )


def new_invitation():
    """A room's invitation: a token no one can guess and when it stops letting anyone in."""
    return {
        "invite_token": secrets.token_urlsafe(32),
        "invite_expires_at": timezone.now() + timedelta(hours=settings.ROOMS_INVITE_TTL_HOURS),
    }


def join(user, invite_token):
    """(room, joined now): the room the invitation opens for `user`, the interviewer's own or
    the candidate's (the first other person to follow an unexpired link to an open room becomes it;
    in a peer room, only the invited learner may)."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(invite_token=invite_token).first()
        if room is None:
            raise RoomRefused("This invitation link is not valid.")
        if is_participant(room, user):
            return room, False
        if room.invitee_id is not None and room.invitee_id != user.pk:
            raise RoomRefused("This invitation is for another learner.")
        if not room.is_open:
            raise RoomRefused("This interview has ended.")
        if room.candidate_id is not None:
            raise RoomRefused("Someone has already joined this interview through this link.")
        if room.invite_expires_at <= timezone.now():
            raise RoomRefused("This invitation link has expired: ask the interviewer for a new room.")
        room.candidate = user
        room.save(update_fields=["candidate"])
    return room, True


def is_participant(room, user):
    return user.is_authenticated and user.pk in (room.interviewer_id, room.candidate_id)


def room_for(user, public_id):
    """The room if `user` is one of its two people; RoomRefused otherwise (also when it does not exist)."""
    room = (
        Room.objects.select_related("question", "exercise", "interviewer", "candidate")
        .filter(public_id=public_id)
        .first()
    )
    if room is None or not is_participant(room, user):
        raise RoomRefused("This room is not yours to open.")
    return room


def rooms_of(user):
    """The rooms `user` opened or joined, newest first, with what a list of them shows."""
    return (
        Room.objects.filter(Q(interviewer=user) | Q(candidate=user))
        .select_related("question", "interviewer", "candidate")
        .order_by("-created_at", "-pk")
    )


def _open_for(user, room):
    if not is_participant(room, user):
        raise RoomRefused("This room is not yours.")
    if not room.is_open:
        raise RoomRefused("This interview has ended: the room is read-only.")


def serialised_steps(room, since_version):
    """The accepted steps after `since_version`, as the editors receive them."""
    steps = RoomStep.objects.filter(room=room, version__gte=since_version).order_by("version")
    return [{"changes": step.changes, "clientID": step.client_id} for step in steps]


def push(user, room, version, updates):
    """Append `updates` (each {"changes": ChangeSet JSON, "clientID": str}) made on top of
    `version`. Returns the accepted steps, or None when `version` is behind the log (the
    editor then takes the steps it missed, rebases its own and pushes again)."""
    if not isinstance(updates, list) or not 0 < len(updates) <= MAX_STEPS_PER_PUSH:
        raise RoomRefused(f"A push carries 1 to {MAX_STEPS_PER_PUSH} steps.")
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _open_for(user, room)
        if version != room.version:
            return None
        text = room.text
        accepted = []
        for update in updates:
            if not isinstance(update, dict) or not isinstance(update.get("clientID"), str):
                raise RoomRefused("Each step needs its changes and the editor's clientID.")
            try:
                text = apply_changes(text, update.get("changes"))
            except BadChanges as exc:
                raise RoomRefused(f"A step was refused: {exc}") from None
            accepted.append({"changes": update["changes"], "clientID": update["clientID"][:64]})
        if len(text.encode()) > settings.SUBMISSION_MAX_BYTES:
            raise RoomRefused(f"The program would pass the {settings.SUBMISSION_MAX_BYTES // 1024} KiB limit.")
        RoomStep.objects.bulk_create(
            RoomStep(
                room=room,
                version=room.version + offset,
                changes=step["changes"],
                client_id=step["clientID"],
                author=user,
            )
            for offset, step in enumerate(accepted)
        )
        room.text = text
        room.version += len(accepted)
        room.save(update_fields=["text", "version"])
    return accepted


def start_grading(user, room, purpose_name):
    """A quick check ("check") or full grading ("practice") of the room's program as it
    stands, as `user`'s submission (their rate limit and queue), recorded with the room."""
    purpose = GRADING_PURPOSES.get(purpose_name)
    if purpose is None:
        raise RoomRefused(f"Unknown kind of grading {purpose_name!r}.")
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _open_for(user, room)
        try:
            submission = submit_practice(user, room.exercise, room.text, purpose=purpose)
        except ValidationError as exc:
            raise RoomRefused(" ".join(exc.messages)) from None
        return RoomGrading.objects.create(room=room, submission=submission, started_by=user)


def grading_for(user, public_id, submission_id):
    """One of the room's gradings, for either participant."""
    room = room_for(user, public_id)
    grading = (
        RoomGrading.objects.select_related("submission", "started_by")
        .filter(room=room, submission_id=submission_id)
        .first()
    )
    if grading is None:
        raise RoomRefused("No such grading in this room.")
    return grading


def save_notes(user, room, notes):
    """The interviewer's private notes; the candidate never writes or sees them."""
    if user.pk != room.interviewer_id:
        raise RoomRefused("Only the interviewer keeps notes.")
    if not isinstance(notes, str) or len(notes) > settings.ROOMS_NOTES_MAX_CHARS:
        raise RoomRefused(f"Notes are text of at most {settings.ROOMS_NOTES_MAX_CHARS} characters.")
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _open_for(user, room)
        room.notes = notes
        room.save(update_fields=["notes"])


def save_mark(user, room, point, mark):
    """The interviewer's mark (a RubricMark value, or None to clear it) for rubric point `point`
    (its index in the question's rubric); like the notes, the candidate never sets or sees them."""
    if user.pk != room.interviewer_id:
        raise RoomRefused("Only the interviewer marks the rubric.")
    rubric = room.question.rubric or []
    if not rubric:
        raise RoomRefused("This question has no rubric to mark.")
    if not isinstance(point, int) or isinstance(point, bool) or not 0 <= point < len(rubric):
        raise RoomRefused(f"A mark names a rubric point from 0 to {len(rubric) - 1}.")
    if mark is not None and (isinstance(mark, bool) or mark not in RubricMark.values):
        raise RoomRefused("A mark is 0 (not met), 1 (partly) or 2 (met).")
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _open_for(user, room)
        if mark is None:
            room.rubric_marks.pop(str(point), None)
        else:
            room.rubric_marks[str(point)] = mark
        room.save(update_fields=["rubric_marks"])
    return room.rubric_marks


def marked_rubric(room):
    """The current question's rubric points in order, each with the room's mark (None when unmarked)."""
    return _marked(room.question, room.rubric_marks)


def _marked(question, marks):
    marks = marks or {}
    return [
        {"index": index, "point": point, "mark": RubricMark(marks[str(index)]) if str(index) in marks else None}
        for index, point in enumerate(question.rubric or [])
    ]


def move_to_question(user, room, question_slug):
    """Move the room on to another live coding exercise (the interviewer only; not in a peer
    interview, whose questions are drawn so the candidate has not met them). The current
    question's code and marks are kept as a RoomQuestion; the document becomes the new
    exercise's starter through one step that replaces it all, appended to the log like any
    edit, so both editors follow. Returns (the room, that step as the editors receive it,
    the version it was made on)."""
    if user.pk != room.interviewer_id:
        raise RoomRefused("Only the interviewer moves the room to another question.")
    if room.is_peer:
        raise RoomRefused("A peer interview keeps the questions it drew.")
    question, exercise = _live_exercise(question_slug)
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        _open_for(user, room)
        if exercise.pk == room.exercise_id:
            raise RoomRefused("The room is on that question already.")
        previous = room.past_questions.order_by("-last_version").first()
        RoomQuestion.objects.create(
            room=room,
            question_id=room.question_id,
            exercise_id=room.exercise_id,
            first_version=previous.last_version + 1 if previous else 0,
            last_version=room.version,
            text=room.text,
            rubric_marks=room.rubric_marks,
            left_at=timezone.now(),
        )
        step = {"changes": [[code_units(room.text), *exercise.starter_code.split("\n")]], "clientID": "server"}
        RoomStep.objects.create(
            room=room, version=room.version, changes=step["changes"], client_id=step["clientID"], author=user
        )
        made_on = room.version
        room.question, room.exercise, room.text = question, exercise, exercise.starter_code
        room.version += 1
        room.rubric_marks = {}
        room.save(update_fields=["question", "exercise", "text", "version", "rubric_marks"])
    return room, step, made_on


def questions_of(room):
    """Each question the room was on, in order, the current one last: its question and exercise,
    final code, first and last version in the step log, rubric marks and gradings."""
    past = list(room.past_questions.select_related("question", "exercise").order_by("first_version"))
    parts, since = [], None
    for number, item in enumerate(past, start=1):
        gradings = room_gradings(room).filter(created_at__lt=item.left_at)
        parts.append(
            {
                "number": number,
                "question": item.question,
                "exercise": item.exercise,
                "text": item.text,
                "first_version": item.first_version,
                "last_version": item.last_version,
                "rubric": _marked(item.question, item.rubric_marks),
                "gradings": gradings.filter(created_at__gte=since) if since else gradings,
            }
        )
        since = item.left_at
    gradings = room_gradings(room)
    parts.append(
        {
            "number": len(past) + 1,
            "question": room.question,
            "exercise": room.exercise,
            "text": room.text,
            "first_version": past[-1].last_version + 1 if past else 0,
            "last_version": room.version,
            "rubric": marked_rubric(room),
            "gradings": gradings.filter(created_at__gte=since) if since else gradings,
        }
    )
    return parts


def end(user, room):
    """End the interview (the interviewer only): the room turns read-only and shows its report."""
    if user.pk != room.interviewer_id:
        raise RoomRefused("Only the interviewer ends the interview.")
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if room.is_open:
            room.state = RoomState.ENDED
            room.ended_at = timezone.now()
            room.save(update_fields=["state", "ended_at"])
    return room


def room_gradings(room):
    return room.gradings.select_related("submission", "started_by").order_by("created_at")
