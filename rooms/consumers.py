"""The room's websocket: a thin relay. Each message is checked and carried out by
rooms.services as the connection's own user; what was accepted goes to the whole room."""

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.urls import reverse

from . import broadcast, services
from .models import Room

#: The close code the page reads as "this room is not yours" (and stops reconnecting). A refusal is
#: accepted and closed at once: a handshake refused outright reaches the page only as code 1006.
CLOSE_REFUSED = 4403


class RoomConsumer(JsonWebsocketConsumer):
    def connect(self):
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

    def end(self, content):
        room = services.end(self.user, self._fresh_room())
        broadcast.send(room, {"event": "ended", "report_url": reverse("rooms:report", args=[room.public_id])})

    HANDLERS = {"pull": pull, "push": push, "cursor": cursor, "grade": grade, "notes": notes, "end": end}

    def room_event(self, event):
        self.send_json(event["message"])
