"""The room's websocket through the site's ASGI application: who may connect, what the
server checks on each message, and the step log that survives a reconnection."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from questions.models import ExerciseVersion, Kind, Question
from rooms import playback, services
from rooms.consumers import CLOSE_REFUSED
from rooms.models import Room, RoomGrading
from submissions.models import Submission
from submissions.services import queueing
from submissions.signals import submission_graded
from submissions.states import Status, Verdict

from .conftest import STARTER

# Channels closes the database connection around each consumer call: no test transaction survives that.
pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario):
    async_to_sync(scenario)()


async def hello(communicator):
    connected, code = await communicator.connect()
    assert connected, code
    message = await communicator.receive_json_from()
    assert message["event"] == "hello"
    return message


def insert_at_end(text, inserted, client_id):
    return {"clientID": client_id, "changes": [len(text), [0, inserted]]}


def test_an_outsider_and_a_stranger_origin_are_refused(room, outsider, candidate, connect):
    stranger, foreign = connect(outsider, room), connect(candidate, room, origin="http://evil.example")

    async def scenario():
        assert await stranger.connect() == (True, None)
        assert await stranger.receive_output() == {"type": "websocket.close", "code": CLOSE_REFUSED}
        connected, _ = await foreign.connect()
        assert not connected

    run(scenario)


def test_an_expired_link_lets_nobody_in_and_a_used_one_nobody_else(exercise, interviewer, candidate, outsider):
    room = services.open_room(interviewer, exercise.question.slug)
    Room.objects.filter(pk=room.pk).update(invite_expires_at=timezone.now())
    try:
        services.join(candidate, room.invite_token)
    except services.RoomRefused as refusal:
        assert "expired" in str(refusal)
    else:
        raise AssertionError("an expired link let the candidate in")
    Room.objects.filter(pk=room.pk).update(invite_expires_at=timezone.now() + timezone.timedelta(hours=1))
    assert services.join(candidate, room.invite_token) == (room, True)
    assert services.join(candidate, room.invite_token) == (room, False)
    try:
        services.join(outsider, room.invite_token)
    except services.RoomRefused as refusal:
        assert "already joined" in str(refusal)
    else:
        raise AssertionError("a second person joined through the same link")


def test_edits_reach_the_other_side_and_survive_a_reconnection(room, interviewer, candidate, connect):
    ivy, cand, again = connect(interviewer, room), connect(candidate, room), connect(candidate, room)

    async def scenario():
        start = await hello(ivy)
        await hello(cand)
        assert (start["doc"], start["version"]) == (STARTER, 0)
        await ivy.send_json_to({"type": "push", "version": 0, "updates": [insert_at_end(STARTER, "# ivy", "c-ivy")]})
        for side in (ivy, cand):
            step = await side.receive_json_from()
            assert (step["event"], step["version"], step["updates"][0]["clientID"]) == ("steps", 0, "c-ivy")
        # A push on a version behind the log is answered with the steps it missed, and stored nowhere.
        await cand.send_json_to({"type": "push", "version": 0, "updates": [insert_at_end(STARTER, "# lost", "c-cand")]})
        missed = await cand.receive_json_from()
        assert (missed["event"], len(missed["updates"])) == ("steps", 1)
        await cand.disconnect()
        state = await hello(again)
        assert (state["doc"], state["version"]) == (STARTER + "# ivy", 1)
        await again.send_json_to({"type": "pull", "version": 0})
        assert (await again.receive_json_from())["updates"][0]["changes"] == [len(STARTER), [0, "# ivy"]]
        await ivy.disconnect()
        await again.disconnect()

    run(scenario)
    room.refresh_from_db()
    assert (room.text, room.version, room.steps.count()) == (STARTER + "# ivy", 1, 1)


def test_the_server_names_the_sender_and_checks_what_each_may_do(room, interviewer, candidate, connect):
    ivy, cand = connect(interviewer, room), connect(candidate, room)

    async def scenario():
        await hello(ivy)
        await hello(cand)
        await cand.send_json_to({"type": "cursor", "anchor": 3, "head": 3, "clientID": "c-cand", "name": "ivy"})
        cursor = await ivy.receive_json_from()
        assert (cursor["event"], cursor["name"], cursor["head"]) == ("cursor", candidate.username, 3)
        await cand.receive_json_from()  # its own cursor, which its editor ignores
        await cand.send_json_to({"type": "notes", "text": "hire"})
        assert (await cand.receive_json_from())["message"] == "Only the interviewer keeps notes."
        await cand.send_json_to({"type": "end"})
        assert (await cand.receive_json_from())["message"] == "Only the interviewer ends the interview."
        await cand.send_json_to({"type": "push", "version": 0, "updates": [{"clientID": "c", "changes": [1]}]})
        assert "does not cover the whole document" in (await cand.receive_json_from())["message"]
        await ivy.send_json_to({"type": "notes", "text": "Explains the vectorised form well."})
        assert (await ivy.receive_json_from())["event"] == "notes_saved"
        await ivy.send_json_to({"type": "end"})
        for side in (ivy, cand):
            assert (await side.receive_json_from())["event"] == "ended"
        # An ended room is read-only.
        await cand.send_json_to({"type": "push", "version": 0, "updates": [insert_at_end(STARTER, "x", "c")]})
        assert "read-only" in (await cand.receive_json_from())["message"]
        await cand.send_json_to({"type": "grade", "purpose": "check"})
        assert "read-only" in (await cand.receive_json_from())["message"]
        await ivy.disconnect()
        await cand.disconnect()

    run(scenario)
    room.refresh_from_db()
    assert (room.notes, room.text, room.state) == ("Explains the vectorised form well.", STARTER, "ended")


def test_a_grading_started_by_one_is_announced_to_both_and_so_is_its_result(
    room, interviewer, candidate, connect, monkeypatch
):
    queued = []
    monkeypatch.setattr(queueing, "enqueue", queued.append)  # no worker here: the grading is finished below
    ivy, cand = connect(interviewer, room), connect(candidate, room)

    async def scenario():
        await hello(ivy)
        await hello(cand)
        await cand.send_json_to({"type": "grade", "purpose": "check"})
        for side in (ivy, cand):
            started = await side.receive_json_from()
            assert (started["event"], started["by"], started["purpose"]) == (
                "grading",
                candidate.username,
                "Quick check",
            )
        submission = await database_sync_to_async(Submission.objects.get)(pk=started["id"])
        assert (submission.user_id, submission.code) == (candidate.pk, STARTER)
        await database_sync_to_async(graded)(submission)
        for side in (ivy, cand):
            result = await side.receive_json_from()
            assert (result["event"], result["id"], result["verdict"]) == (
                "graded",
                submission.pk,
                "Correct on small inputs",
            )
        await ivy.disconnect()
        await cand.disconnect()

    run(scenario)
    grading = RoomGrading.objects.get()
    assert (grading.started_by, queued) == (candidate, [grading.submission])


def graded(submission):
    Submission.objects.filter(pk=submission.pk).update(status=Status.DONE, verdict=Verdict.ACCEPTED)
    submission.refresh_from_db()
    submission_graded.send(sender=Submission, submission=submission)


def test_a_grading_is_not_failed_by_a_channel_layer_out_of_reach(room, candidate, settings, caplog, monkeypatch):
    monkeypatch.setattr(queueing, "enqueue", lambda submission: None)
    grading = services.start_grading(candidate, room, "check")
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"]}}
    }
    graded(grading.submission)
    assert f"could not tell room {room.public_id}" in caplog.text


class FrozenClock:
    """rooms.consumers' monotonic clock, moved only by the test: no token comes back unasked."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def frozen_clock(monkeypatch):
    from rooms import consumers

    clock = FrozenClock()
    monkeypatch.setattr(consumers, "monotonic", clock)
    monkeypatch.setattr(consumers, "MESSAGE_BURST", 3)
    monkeypatch.setattr(consumers, "MESSAGES_PER_SECOND", 10)
    return clock


def test_a_connection_past_its_rate_has_messages_dropped_then_refilled(room, candidate, connect, frozen_clock):
    from rooms.consumers import TOO_FAST

    cand = connect(candidate, room)

    async def scenario():
        await hello(cand)
        for _ in range(3):  # the burst
            await cand.send_json_to({"type": "pull", "version": 0})
            assert (await cand.receive_json_from())["event"] == "steps"
        await cand.send_json_to({"type": "pull", "version": 0})
        assert (await cand.receive_json_from()) == {"event": "error", "message": TOO_FAST}
        await cand.send_json_to({"type": "pull", "version": 0})
        assert await cand.receive_nothing()  # dropped, and said once
        frozen_clock.now += 0.1  # one token back at 10 a second
        await cand.send_json_to({"type": "pull", "version": 0})
        assert (await cand.receive_json_from())["event"] == "steps"
        await cand.send_json_to({"type": "pull", "version": 0})
        assert (await cand.receive_json_from())["message"] == TOO_FAST  # a new run of drops is told again
        await cand.disconnect()

    run(scenario)


def test_a_connection_that_keeps_flooding_is_closed(room, candidate, connect, frozen_clock, monkeypatch):
    from rooms import consumers

    monkeypatch.setattr(consumers, "DROPS_BEFORE_CLOSE", 4)
    cand = connect(candidate, room)

    async def scenario():
        await hello(cand)
        for _ in range(3):
            await cand.send_json_to({"type": "cursor", "anchor": 0, "head": 0})
            assert (await cand.receive_json_from())["event"] == "cursor"
        for _ in range(4):
            await cand.send_json_to({"type": "cursor", "anchor": 0, "head": 0})
        assert (await cand.receive_json_from())["message"] == consumers.TOO_FAST
        closed = await cand.receive_output()
        assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FLOODING}

    run(scenario)


def test_only_the_interviewer_marks_the_rubric_and_a_bad_mark_is_refused(room, interviewer, candidate, connect):
    ivy, cand = connect(interviewer, room), connect(candidate, room)

    async def scenario():
        await hello(ivy)
        await hello(cand)
        await cand.send_json_to({"type": "mark", "point": 0, "mark": 2})
        assert (await cand.receive_json_from())["message"] == "Only the interviewer marks the rubric."
        await ivy.send_json_to({"type": "mark", "point": 1, "mark": 2})
        assert (await ivy.receive_json_from())["message"] == "A mark names a rubric point from 0 to 0."
        await ivy.send_json_to({"type": "mark", "point": 0, "mark": 5})
        assert (await ivy.receive_json_from())["message"] == "A mark is 0 (not met), 1 (partly) or 2 (met)."
        await ivy.send_json_to({"type": "mark", "point": 0, "mark": 1})
        assert await ivy.receive_json_from() == {"event": "mark_saved", "point": 0}
        await ivy.disconnect()
        await cand.disconnect()

    run(scenario)
    room.refresh_from_db()
    assert room.rubric_marks == {"0": 1}


def test_the_interviewer_moves_both_editors_to_the_next_question_and_the_report_keeps_the_first(
    room, interviewer, candidate, connect, exercise, client
):
    second = ExerciseVersion.objects.create(
        question=Question.objects.create(
            slug="sum-values",
            title="Sum the values",
            topic=exercise.question.topic,
            difficulty="easy",
            kind=Kind.CODING,
            prompt="Sum them.",
            rubric=["Uses the built-in sum"],
        ),
        number=1,
        spec=exercise.spec,
        reference_code="def total(values):\n    return sum(values)\n",
        starter_code="def total(values):\n    pass\n",
        inputs_code=exercise.inputs_code,
        solution_code="def total(values):\n    return sum(values)\n",
        content_hash="hash-2",
    )
    services.save_mark(interviewer, room, 0, 2)
    ivy, cand = connect(interviewer, room), connect(candidate, room)

    async def scenario():
        await hello(ivy)
        await hello(cand)
        await cand.send_json_to({"type": "push", "version": 0, "updates": [insert_at_end(STARTER, "# é", "c")]})
        for side in (ivy, cand):
            await side.receive_json_from()
        await cand.send_json_to({"type": "move", "question": "sum-values"})
        assert (await cand.receive_json_from())["message"] == "Only the interviewer moves the room to another question."
        await ivy.send_json_to({"type": "move", "question": "no-such-question"})
        assert (await ivy.receive_json_from())["message"] == "There is no live coding exercise by that name."
        await ivy.send_json_to({"type": "move", "question": "sum-values"})
        for side in (ivy, cand):
            reset = await side.receive_json_from()
            assert (reset["event"], reset["version"], reset["updates"][0]["clientID"]) == ("steps", 1, "server")
            assert (await side.receive_json_from()) == {"event": "moved", "title": "Sum the values"}
        await ivy.disconnect()
        await cand.disconnect()

    run(scenario)
    room.refresh_from_db()
    assert (room.exercise, room.text, room.version, room.rubric_marks) == (second, second.starter_code, 2, {})
    first = room.past_questions.get()
    assert (first.exercise, first.text, first.rubric_marks) == (exercise, STARTER + "# é", {"0": 2})
    services.end(interviewer, room)
    client.force_login(interviewer)
    report = client.get(reverse("rooms:report", args=[room.public_id])).content.decode()
    assert "Question 1: " in report and "Question 2: " in report
    assert "# é" in report and "Vectorises the loop: <strong>Met</strong>" in report
    for part, starter in zip(services.questions_of(room), (STARTER, second.starter_code), strict=True):
        frames = playback.playback(room, part, "track")["frames"]
        assert (frames[0]["code"], frames[-1]["code"]) == (starter, part["text"])
