"""Peer interviews: two learners interview each other, one half each, each on a coding
exercise the other has not attempted. The learner who invites interviews first; swapping
roles ends that half and opens the second on the other question, where the rubric and the
private notes are the other person's. Each half is a Room, so the step log, the gradings
and the check of every message against its sender's role work as in any room, with that
half's interviewer and candidate. Refusals raise rooms.services.RoomRefused."""

import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from mock_interviews.drawing import gradable_exercises, seen_question_ids
from questions.models import Kind, Question
from submissions.models import Submission

from .models import Room, RoomKind, RoomState
from .services import RoomRefused, new_invitation


def attempted_question_ids(user):
    """The questions `user` has met: practised (answered or submitted, as the progress page
    counts), submitted for any purpose, drawn in a mock interview, or been in a room on."""
    submitted = Submission.objects.filter(user=user).values_list("exercise__question_id", flat=True)
    in_rooms = Room.objects.filter(Q(interviewer=user) | Q(candidate=user)).values_list("question_id", flat=True)
    return seen_question_ids(user) | set(submitted) | set(in_rooms)


def draw_questions(inviter, partner, rng=random):
    """(first, second): two different live coding exercises this install can grade now, `first`
    one `partner` has not attempted (the inviter interviews them on it), `second` one the
    inviter has not attempted (the partner interviews on it). RoomRefused when there is none."""
    live = list(Question.objects.public().live().filter(kind=Kind.CODING).order_by("pk"))
    gradable = gradable_exercises(live)
    pool = [question for question in live if question.pk in gradable]
    partner_seen, inviter_seen = attempted_question_ids(partner), attempted_question_ids(inviter)
    for_partner = [question for question in pool if question.pk not in partner_seen]
    for_inviter = [question for question in pool if question.pk not in inviter_seen]
    name = partner.get_username()
    if not for_partner:
        raise RoomRefused(f"{name} has attempted every live coding exercise: there is none left to interview them on.")
    if not for_inviter:
        raise RoomRefused(
            f"You have attempted every live coding exercise: there is none left for {name} to interview you on."
        )
    rng.shuffle(for_partner)
    for first in for_partner:
        others = [question for question in for_inviter if question.pk != first.pk]
        if others:
            return first, rng.choice(others)
    raise RoomRefused(
        f"{for_partner[0].title} is the only coding exercise neither of you has attempted: "
        "a peer interview needs two, one for each of you."
    )


def open_peer_room(inviter, partner_name, rng=random):
    """The first half of a peer interview with the learner named `partner_name`: the inviter
    interviews, on a question drawn by draw_questions, and only that learner may join."""
    name = (partner_name or "").strip()
    User = get_user_model()
    partner = User.objects.filter(**{User.USERNAME_FIELD: name, "is_active": True}).first() if name else None
    if partner is None:
        raise RoomRefused(f"There is no learner named {name!r}." if name else "Name the learner you invite.")
    if partner.pk == inviter.pk:
        raise RoomRefused("A peer interview is with another learner: name someone else.")
    first, second = draw_questions(inviter, partner, rng)
    exercise = first.current_exercise()
    return Room.objects.create(
        kind=RoomKind.PEER,
        question=first,
        exercise=exercise,
        interviewer=inviter,
        invitee=partner,
        swap_question=second,
        text=exercise.starter_code,
        **new_invitation(),
    )


def swap(user, room):
    """Swap roles: end the first half (its interviewer only, once the partner has joined) and
    open the second on the other question, its interviewer the first half's candidate. Returns
    the second half."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if not room.is_peer or room.first_half_id is not None:
            raise RoomRefused("Only the first half of a peer interview swaps roles.")
        if user.pk != room.interviewer_id:
            raise RoomRefused("Only this half's interviewer swaps roles.")
        if not room.is_open:
            raise RoomRefused("The roles have already been swapped, or the interview has ended.")
        if room.candidate_id is None:
            raise RoomRefused("Your partner has not joined yet: send them the invitation first.")
        question = Question.objects.public().live().filter(pk=room.swap_question_id).first()
        exercise = question.current_exercise() if question else None
        if exercise is None:
            raise RoomRefused("The second question is no longer published: end the interview instead.")
        now = timezone.now()
        second = Room.objects.create(
            kind=RoomKind.PEER,
            question=question,
            exercise=exercise,
            interviewer_id=room.candidate_id,
            candidate_id=room.interviewer_id,
            first_half=room,
            text=exercise.starter_code,
            # Both people are in already: this half's link lets nobody in.
            invite_token=new_invitation()["invite_token"],
            invite_expires_at=now,
        )
        room.state, room.ended_at = RoomState.ENDED, now
        room.save(update_fields=["state", "ended_at"])
    return second
