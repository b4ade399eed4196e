"""Rooms on a small coding exercise, and websocket clients for them through the site's
websocket application (session cookie, origin check, routing)."""

import json

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.routing import ProtocolTypeRouter
from django.conf import settings as django_settings
from django.test import Client

from interview_platform.websockets import websocket_application
from questions.models import ExerciseVersion, Kind, Question
from rooms import services
from rooms.models import RoomGrading
from submissions.models import Purpose, Submission

STARTER = "def transform(values):\n    return values\n"


class WebsocketCommunicator(ApplicationCommunicator):
    """A websocket client for an ASGI application, in process: what channels.testing's class of
    the same name does. That package imports daphne, which this project does not install
    (its Twisted TLS extra needs a pyOpenSSL that refuses the cryptography release SSO uses)."""

    def __init__(self, application, path, headers):
        scope = {"type": "websocket", "path": path, "query_string": b"", "headers": headers, "subprotocols": []}
        super().__init__(application, scope)

    async def connect(self, timeout=2):
        """(True, None) once accepted; (False, close code) when refused."""
        await self.send_input({"type": "websocket.connect"})
        reply = await self.receive_output(timeout)
        return (True, None) if reply["type"] == "websocket.accept" else (False, reply.get("code", 1000))

    async def send_json_to(self, data):
        await self.send_input({"type": "websocket.receive", "text": json.dumps(data)})

    async def receive_json_from(self, timeout=2):
        reply = await self.receive_output(timeout)
        assert reply["type"] == "websocket.send", reply
        return json.loads(reply["text"])

    async def disconnect(self, code=1000, timeout=2):
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)


@pytest.fixture(autouse=True)
def in_process_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def exercise(db):
    question = Question.objects.create(
        slug="square-values",
        title="Square the values",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Square every value, fast.",
        sample_answer="Use NumPy.",
        rubric=["Vectorises the loop"],
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"target": "cpu", "entry_point": "transform", "sizes": [1000]},
        reference_code="def transform(values):\n    return [v * v for v in values]\n",
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
        solution_code="import numpy as np\n\ndef transform(values):\n    return np.square(values)\n",
        content_hash="hash-1",
    )


@pytest.fixture
def interviewer(make_user):
    return make_user("ivy")


@pytest.fixture
def room(exercise, interviewer, candidate):
    room = services.open_room(interviewer, exercise.question.slug)
    room, _ = services.join(candidate, room.invite_token)
    return room


@pytest.fixture
def connect():
    """connect(user, room) -> a WebsocketCommunicator signed in as `user` (not yet connected)."""
    application = ProtocolTypeRouter({"websocket": websocket_application()})

    def make(user, room, origin="http://testserver"):
        client = Client()  # a session of its own: logging another person in on it would end this one
        client.force_login(user)
        cookie = f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
        headers = [(b"cookie", cookie.encode()), (b"origin", origin.encode())]
        return WebsocketCommunicator(application, f"/ws/rooms/{room.public_id}/", headers=headers)

    return make


@pytest.fixture
def second_exercise(exercise):
    """Another live coding exercise, with a rubric of its own, for a room to move on to."""
    return ExerciseVersion.objects.create(
        question=Question.objects.create(
            slug="sum-values",
            title="Sum the values",
            topic=exercise.question.topic,
            difficulty="easy",
            kind=Kind.CODING,
            prompt="Sum them.",
            rubric=["Uses the built-in sum", "Names the overflow risk"],
        ),
        number=1,
        spec=exercise.spec,
        reference_code="def total(values):\n    return sum(values)\n",
        starter_code="def total(values):\n    pass\n",
        inputs_code=exercise.inputs_code,
        solution_code="def total(values):\n    return sum(values)\n",
        content_hash="hash-2",
    )


@pytest.fixture
def moved_room(room, interviewer, candidate, second_exercise):
    """`room` moved on from its first exercise to `second_exercise`: the candidate typed a line and ran
    a quick check on the first and another on the second; the interviewer marked a point on each."""
    services.push(candidate, room, 0, [{"clientID": "c", "changes": [len(STARTER), [0, "# first"]]}])
    room.refresh_from_db()
    first_check = _quick_check(room, candidate)
    services.save_mark(interviewer, room, 0, 2)
    room, _, _ = services.move_to_question(interviewer, room, second_exercise.question.slug)
    second_check = _quick_check(room, candidate)
    services.save_mark(interviewer, room, 1, 1)
    room.refresh_from_db()
    return room, first_check, second_check


def _quick_check(room, user):
    """A quick check of the room's program as it stands, started by `user` (not queued)."""
    submission = Submission.objects.create(
        user=user, exercise=room.exercise, code=room.text, purpose=Purpose.QUICK_CHECK
    )
    return RoomGrading.objects.create(room=room, submission=submission, started_by=user).submission
