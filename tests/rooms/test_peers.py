"""Peer interviews: the questions drawn (each one the other learner has not attempted), who
the invitation lets in, the swap of roles and what each person may do in each half, over the
websocket as on the pages, and the report of both halves."""

import random

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse
from django.utils import timezone

from mydata import services as mydata
from questions.models import Attempt, ExerciseVersion, Kind, Question
from rooms import peers, services
from rooms.models import Room, RoomKind
from submissions.models import Purpose, Submission

from .conftest import STARTER


@pytest.fixture
def make_exercise(db):
    """make_exercise(slug) -> a live coding exercise whose starter code names it."""

    def make(slug):
        question = Question.objects.create(
            slug=slug,
            title=slug.replace("-", " ").capitalize(),
            topic="Algorithmic Complexity & Code-Level Optimization",
            difficulty="easy",
            kind=Kind.CODING,
            prompt=f"Make {slug} fast.",
            rubric=[f"Rubric point of {slug}"],
        )
        return ExerciseVersion.objects.create(
            question=question,
            number=1,
            spec={"target": "cpu", "entry_point": "transform", "sizes": [1000]},
            reference_code="def transform(values):\n    return values\n",
            starter_code=f"# {slug}\n{STARTER}",
            inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
            solution_code="def transform(values):\n    return values\n",
            content_hash=f"hash-{slug}",
        )

    return make


@pytest.fixture
def inviter(make_user):
    return make_user("ivy")


@pytest.fixture
def partner(make_user):
    return make_user("pat")


def attempt(user, exercise):
    """`user` has submitted `exercise` once (a quick check, as practice counts it)."""
    Submission.objects.create(user=user, exercise=exercise, code=STARTER, purpose=Purpose.QUICK_CHECK)


def refusal(call, *args):
    with pytest.raises(services.RoomRefused) as refused:
        call(*args)
    return str(refused.value)


def peer_room(inviter, partner):
    room = peers.open_peer_room(inviter, partner.get_username())
    room, _ = services.join(partner, room.invite_token)
    return room


@pytest.mark.django_db
def test_each_question_is_one_the_other_learner_has_not_attempted(make_exercise, inviter, partner):
    one, two, three = (make_exercise(slug) for slug in ("one", "two", "three"))
    attempt(partner, one.question.current_exercise())  # pat has met "one": ivy cannot interview pat on it
    Attempt.objects.create(user=inviter, question=two.question, answer_text="seen", score=0)
    for seed in range(20):
        first, second = peers.draw_questions(inviter, partner, random.Random(seed))
        assert first.slug in ("two", "three") and second.slug in ("one", "three") and first != second
    # A room either of them sat in counts as met too.
    room = services.open_room(partner, "three")
    services.join(inviter, room.invite_token)
    assert peers.draw_questions(inviter, partner) == (two.question, one.question)
    del three


@pytest.mark.django_db
def test_a_clear_message_when_no_question_is_left(make_exercise, inviter, partner):
    only = make_exercise("only")
    assert "neither of you" in refusal(peers.open_peer_room, inviter, "pat")
    attempt(partner, only)
    assert refusal(peers.open_peer_room, inviter, "pat") == (
        "pat has attempted every live coding exercise: there is none left to interview them on."
    )
    other = make_exercise("other")
    attempt(inviter, other)
    attempt(inviter, only)
    assert "You have attempted every live coding exercise" in refusal(peers.open_peer_room, inviter, "pat")
    assert refusal(peers.open_peer_room, inviter, "nobody") == "There is no learner named 'nobody'."
    assert "someone else" in refusal(peers.open_peer_room, inviter, "ivy")
    assert Room.objects.count() == 0


@pytest.mark.django_db
def test_only_the_invited_learner_joins_before_the_link_expires(make_exercise, inviter, partner, outsider):
    make_exercise("one"), make_exercise("two")
    room = peers.open_peer_room(inviter, " pat ")
    assert (room.kind, room.invitee, room.candidate) == (RoomKind.PEER, partner, None)
    assert refusal(services.join, outsider, room.invite_token) == "This invitation is for another learner."
    Room.objects.filter(pk=room.pk).update(invite_expires_at=timezone.now())
    assert "expired" in refusal(services.join, partner, room.invite_token)
    Room.objects.filter(pk=room.pk).update(invite_expires_at=timezone.now() + timezone.timedelta(hours=1))
    assert services.join(partner, room.invite_token)[1] is True
    assert refusal(services.join, outsider, room.invite_token) == "This invitation is for another learner."


@pytest.mark.django_db
def test_swapping_roles_opens_the_second_half_the_other_way_round(make_exercise, inviter, partner, outsider):
    make_exercise("one"), make_exercise("two")
    room = peers.open_peer_room(inviter, "pat")
    assert "not joined yet" in refusal(peers.swap, inviter, room)
    services.join(partner, room.invite_token)
    room.refresh_from_db()
    assert refusal(peers.swap, partner, room) == "Only this half's interviewer swaps roles."
    assert refusal(peers.swap, outsider, room) == "Only this half's interviewer swaps roles."
    second = peers.swap(inviter, room)
    room.refresh_from_db()
    assert not room.is_open and second.is_open
    assert (second.interviewer, second.candidate, second.question) == (partner, inviter, room.swap_question)
    assert second.question != room.question and second.text == second.exercise.starter_code
    assert room.halves() == [room, second] == second.halves()
    assert "already been swapped" in refusal(peers.swap, inviter, room)
    assert "Only the first half" in refusal(peers.swap, partner, second)
    # The second half's roles hold: its notes and its end are the partner's now, and its link lets nobody in.
    assert refusal(services.save_notes, inviter, second, "mine?") == "Only the interviewer keeps notes."
    assert refusal(services.end, inviter, second) == "Only the interviewer ends the interview."
    services.save_notes(partner, second, "Pat's notes")
    assert "interview has ended" in refusal(services.save_notes, inviter, room, "too late")
    assert "already joined" in refusal(services.join, outsider, second.invite_token)


@pytest.mark.django_db
def test_a_swap_refused_when_the_second_question_was_withdrawn(make_exercise, inviter, partner):
    make_exercise("one"), make_exercise("two")
    room = peer_room(inviter, partner)
    Question.objects.filter(pk=room.swap_question_id).update(retired_at=timezone.now())
    assert "no longer published" in refusal(peers.swap, inviter, room)
    assert Room.objects.get(pk=room.pk).is_open


@pytest.mark.django_db
def test_the_pages_show_the_rubric_to_whoever_interviews_in_each_half(client, make_exercise, inviter, partner):
    make_exercise("one"), make_exercise("two")
    client.force_login(inviter)
    refused = client.post(reverse("rooms:new_peer"), {"partner": "nobody"})
    assert refused.status_code == 400 and "There is no learner named" in refused.content.decode()
    response = client.post(reverse("rooms:new_peer"), {"partner": "pat"})
    room = Room.objects.get()
    assert response.url == room.get_absolute_url()
    html = client.get(room.get_absolute_url()).content.decode()
    first_rubric, second_rubric = f"Rubric point of {room.question.slug}", f"Rubric point of {room.swap_question.slug}"
    assert first_rubric in html and 'id="room-swap"' in html and "only they can join" in html
    assert second_rubric not in html
    client.force_login(partner)
    client.get(reverse("rooms:join", args=[room.invite_token]))
    html = client.get(room.get_absolute_url()).content.decode()
    assert first_rubric not in html and 'id="room-swap"' not in html and "room-notes" not in html

    second = peers.swap(inviter, room)
    assert client.get(room.get_absolute_url()).url == reverse("rooms:report", args=[room.public_id])
    assert client.get(reverse("rooms:report", args=[room.public_id])).url == second.get_absolute_url()
    html = client.get(second.get_absolute_url()).content.decode()
    assert second_rubric in html and 'id="room-notes"' in html and "room-invite-link" not in html
    assert 'id="room-swap"' not in html
    client.force_login(inviter)
    html = client.get(second.get_absolute_url()).content.decode()
    assert second_rubric not in html and "room-notes" not in html


@pytest.mark.django_db
def test_the_report_shows_both_halves_and_each_interviewers_own_notes(client, make_exercise, inviter, partner):
    make_exercise("one"), make_exercise("two")
    room = peer_room(inviter, partner)
    services.save_notes(inviter, room, "Ivy noted: good on NumPy")
    second = peers.swap(inviter, room)
    services.save_notes(partner, second, "Pat noted: explained the cache")
    services.end(partner, second)
    for person, own, other in ((inviter, "Ivy noted", "Pat noted"), (partner, "Pat noted", "Ivy noted")):
        client.force_login(person)
        for half in (room, second):
            report = client.get(reverse("rooms:report", args=[half.public_id])).content.decode()
            assert "Peer interview report" in report
            assert f"Part 1: {room.question.title}" in report and f"Part 2: {second.question.title}" in report
            assert f"# {room.question.slug}" in report and f"# {second.question.slug}" in report
            assert own in report and other not in report
    exported = mydata.export(inviter)["interview_rooms"]
    assert [(row["kind"], row["role"], row["notes"]) for row in exported] == [
        ("peer", "interviewer", "Ivy noted: good on NumPy"),
        ("peer", "candidate", None),
    ]


# Channels closes the database connection around each consumer call: no test transaction survives that.
@pytest.mark.django_db(transaction=True)
def test_the_swap_over_the_websocket_is_the_interviewers_and_moves_both(make_exercise, inviter, partner, connect):
    make_exercise("one"), make_exercise("two")
    room = peer_room(inviter, partner)
    ivy, pat = connect(inviter, room), connect(partner, room)

    async def scenario():
        for person in (ivy, pat):
            assert (await person.connect())[0]
            assert (await person.receive_json_from())["event"] == "hello"
        await pat.send_json_to({"type": "swap"})
        assert await pat.receive_json_from() == {
            "event": "error",
            "message": "Only this half's interviewer swaps roles.",
        }
        await pat.send_json_to({"type": "notes", "text": "the candidate's notes"})
        assert (await pat.receive_json_from())["message"] == "Only the interviewer keeps notes."
        await ivy.send_json_to({"type": "swap"})
        for person in (ivy, pat):
            moved = await person.receive_json_from()
            assert moved["event"] == "swapped"
        await ivy.send_json_to({"type": "push", "version": 0, "updates": [{"clientID": "i", "changes": [1]}]})
        assert "ended" in (await ivy.receive_json_from())["message"]
        for person in (ivy, pat):
            await person.disconnect()
        return moved["room_url"]

    room_url = async_to_sync(scenario)()
    second = Room.objects.get(first_half=room)
    assert room_url == second.get_absolute_url() and second.interviewer == partner
    assert Room.objects.get(pk=room.pk).notes == ""
