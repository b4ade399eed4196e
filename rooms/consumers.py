"""The room's websocket: a thin relay. Each message is checked and carried out by
rooms.services (rooms.peers for a swap of roles) as the connection's own user, against the
role that user holds in this room (a message only the interviewer may send is refused from
the candidate); what was accepted goes to the whole room."""

from time import monotonic

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.urls import reverse

from . import broadcast, peers, services
from .models import Room

#: The close code the page reads as "this room is not yours" (and stops reconnecting). A refusal is
#: accepted and closed at once: a handshake refused outright reaches the page only as code 1006.
CLOSE_REFUSED = 4403

#: How fast one connection may send. The room's page sends a push only once its previous one is
#: confirmed, a cursor after it, and its notes 0.6 s after typing stops, so a fast typist
#: sends a few messages a second and a burst after a reconnection stays well under the burst.
#: Each message takes a token from a bucket of MESSAGE_BURST that refills at MESSAGES_PER_SECOND.
MESSAGES_PER_SECOND = 20
MESSAGE_BURST = 60
#: A message without a token is dropped unread (the first of a run is answered with an error);
#: after this many dropped in a row the connection is closed with CLOSE_FLOODING.
DROPS_BEFORE_CLOSE = 60
CLOSE_FLOODING = 4429
TOO_FAST = "Too many messages from this connection: some were dropped. Slow down."


class TokenBucket:
    """`take()` is True while the bucket holds a token: `burst` at first, refilled at `rate` a second."""

    def __init__(self, rate, burst):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = monotonic()

    def take(self):
        now = monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RoomConsumer(JsonWebsocketConsumer):
    def connect(self):
        self.bucket = TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST)
        self.dropped = 0
        user = self.scope.get("user")
        try:
            self.room = services.room_for(user, self.scope["url_route"]["kwargs"]["public_id"])
        except services.RoomRefused:
            self.accept()
            self.close(code=CLOSE_REFUSED)
            return
        self.user = user
        async_to_sync(self.channel_layer.group_add)(self.room.group_name, self.channel_name)
        self.accept()
        # Read again now that the room's messages reach this connection: nothing falls in between.
        self.room.refresh_from_db()
        candidate = self.room.candidate
        self.send_json(
            {
                "event": "hello",
                "version": self.room.version,
                "doc": self.room.text,
                "open": self.room.is_open,
                "me": user.get_username(),
                "candidate": candidate.get_username() if candidate else None,
            }
        )

    def disconnect(self, code):
        if hasattr(self, "room"):
            async_to_sync(self.channel_layer.group_discard)(self.room.group_name, self.channel_name)

    def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Each message within the connection's rate is decoded and handled; one past it is dropped."""
        if self.bucket.take():
            self.dropped = 0
            super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
            return
        self.dropped += 1
        if self.dropped >= DROPS_BEFORE_CLOSE:
            self.close(code=CLOSE_FLOODING)
        elif self.dropped == 1:
            self.send_json({"event": "error", "message": TOO_FAST})

    def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        handler = self.HANDLERS.get(kind)
        if handler is None:
            self.send_json({"event": "error", "message": f"Unknown message type {kind!r}."})
            return
        try:
            handler(self, content)
        except services.RoomRefused as exc:
            self.send_json({"event": "error", "message": str(exc)})

    def _fresh_room(self):
        """The room as it is now (another connection may have ended it)."""
        self.room = Room.objects.get(pk=self.room.pk)
        return self.room

    def pull(self, content):
        version = content.get("version")
        if not isinstance(version, int) or version < 0:
            raise services.RoomRefused("A pull names the version the editor has.")
        self.send_json({"event": "steps", "version": version, "updates": services.serialised_steps(self.room, version)})

    def push(self, content):
        version = content.get("version")
        if not isinstance(version, int):
            raise services.RoomRefused("A push names the version its steps were made on.")
        accepted = services.push(self.user, self.room, version, content.get("updates"))
        if accepted is None:  # behind: send what it missed, it rebases and pushes again
            self.pull(content)
        else:
            broadcast.send(self.room, {"event": "steps", "version": version, "updates": accepted})

    def cursor(self, content):
        anchor, head = content.get("anchor"), content.get("head")
        if not all(isinstance(value, int) and value >= 0 for value in (anchor, head)):
            raise services.RoomRefused("A cursor is two positions.")
        if not self._fresh_room().is_open:
            raise services.RoomRefused("This interview has ended: the room is read-only.")
        message = {
            "event": "cursor",
            "user": self.user.pk,
            "name": self.user.get_username(),
            "clientID": str(content.get("clientID", ""))[:64],
            "anchor": anchor,
            "head": head,
        }
        broadcast.send(self.room, message)

    def grade(self, content):
        grading = services.start_grading(self.user, self.room, content.get("purpose"))
        broadcast.send(self.room, broadcast.grading_message(grading))

    def notes(self, content):
        services.save_notes(self.user, self._fresh_room(), content.get("text"))
        self.send_json({"event": "notes_saved"})

    def mark(self, content):
        """A rubric mark, answered to the interviewer alone: the candidate never sees the marks."""
        point = content.get("point")
        services.save_mark(self.user, self._fresh_room(), point, content.get("mark"))
        self.send_json({"event": "mark_saved", "point": point})

    def move(self, content):
        """The interviewer moves the room to another question: the step that resets the document
        goes to both editors like any other, then both pages load the new question."""
        room, step, made_on = services.move_to_question(self.user, self._fresh_room(), content.get("question"))
        broadcast.send(room, {"event": "steps", "version": made_on, "updates": [step]})
        broadcast.send(room, {"event": "moved", "title": room.question.title})

    def end(self, content):
        room = services.end(self.user, self._fresh_room())
        broadcast.send(room, {"event": "ended", "report_url": reverse("rooms:report", args=[room.public_id])})

    def swap(self, content):
        """A peer interview's swap of roles: both pages move to the second half."""
        second = peers.swap(self.user, self._fresh_room())
        broadcast.send(self.room, {"event": "swapped", "room_url": second.get_absolute_url()})

    HANDLERS = {
        "pull": pull,
        "push": push,
        "cursor": cursor,
        "grade": grade,
        "notes": notes,
        "mark": mark,
        "move": move,
        "end": end,
        "swap": swap,
    }

    def room_event(self, event):
        self.send_json(event["message"])
