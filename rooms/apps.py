from django.apps import AppConfig


class RoomsConfig(AppConfig):
    """Live interview rooms. A grading started in a room is announced to the room when it
    finishes: rooms listen to submissions.signals.submission_graded."""

    name = "rooms"
    verbose_name = "Interview rooms"

    def ready(self):
        from submissions.signals import submission_graded

        from . import broadcast

        submission_graded.connect(broadcast.announce_graded, dispatch_uid="rooms.announce_graded")
