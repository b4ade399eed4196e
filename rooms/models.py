"""A room: one shared program, its step log (the authoritative edit history the
editors synchronise on), the gradings run from it and the interviewer's notes.

A peer interview is two rooms, its halves: in the first the learner who invited interviews
the invited one; swapping roles ends it and opens the second, on another question, with the
roles the other way round. Each half is an ordinary room with its own interviewer."""

import uuid

from django.conf import settings
from django.db import models
from django.urls import reverse


class RoomState(models.TextChoices):
    """Open rooms take edits and gradings; ended rooms are read-only and show their report."""

    OPEN = "open", "Open"
    ENDED = "ended", "Ended"


class RoomKind(models.TextChoices):
    """An interview (one interviewer, whoever follows the link is the candidate) or a half of a peer
    interview between two learners (only the invited learner joins; each interviews once)."""

    INTERVIEW = "interview", "Interview"
    PEER = "peer", "Peer interview"


class RubricMark(models.IntegerChoices):
    """How well the candidate met one rubric point. Three levels rather than a pass/fail tick:
    interview answers are often half right, and "partly" records that without a free-form score
    two interviewers would read differently; as 0-2 the marks also add up to a comparable total."""

    NOT_MET = 0, "Not met"
    PARTLY = 1, "Partly"
    MET = 2, "Met"


class Room(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    question = models.ForeignKey("questions.Question", on_delete=models.CASCADE, related_name="rooms")
    exercise = models.ForeignKey("questions.ExerciseVersion", on_delete=models.CASCADE, related_name="rooms")
    interviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rooms_led")
    candidate = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="rooms_joined"
    )
    kind = models.CharField(max_length=10, choices=RoomKind.choices, default=RoomKind.INTERVIEW)
    #: A peer room's invited learner: the one person its link lets in.
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="rooms_invited_to"
    )
    #: A peer room's first half: the question of the second, where the invited learner interviews.
    swap_question = models.ForeignKey(
        "questions.Question", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: A peer room's second half: the first, whose swap of roles opened it.
    first_half = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="second_half"
    )
    invite_token = models.CharField(max_length=64, unique=True)
    invite_expires_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=RoomState.choices, default=RoomState.OPEN)
    #: The document after `version` steps: the step log replayed, kept so nothing replays it on each load.
    text = models.TextField()
    version = models.PositiveIntegerField(default=0)
    notes = models.TextField(blank=True, help_text="The interviewer's private notes.")
    #: The interviewer's mark for each rubric point, by the point's index as a string: see RubricMark.
    rubric_marks = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.question.title} ({self.interviewer})"

    def get_absolute_url(self):
        return reverse("rooms:room", args=[self.public_id])

    @property
    def is_open(self):
        return self.state == RoomState.OPEN

    @property
    def is_peer(self):
        return self.kind == RoomKind.PEER

    def halves(self):
        """The rooms of this interview in order: itself, or a peer interview's first and (once swapped) second half."""
        if not self.is_peer:
            return [self]
        first = self.first_half if self.first_half_id else self
        second = Room.objects.select_related("question", "interviewer", "candidate").filter(first_half=first).first()
        return [first, second] if second else [first]

    @property
    def group_name(self):
        """The room's channel-layer group (letters, digits, hyphens: what channels accepts)."""
        return f"room-{self.public_id}"


class RoomStep(models.Model):
    """One accepted edit: CodeMirror's ChangeSet as JSON, taking the document from `version` to `version + 1`."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="steps")
    version = models.PositiveIntegerField()
    changes = models.JSONField()
    client_id = models.CharField(max_length=64)
    #: Kept when its author's account is closed: a gap in the log would desynchronise the editors.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "version"]
        constraints = [models.UniqueConstraint(fields=["room", "version"], name="room_step_version_unique")]


class RoomGrading(models.Model):
    """A quick check or full grading of the room's program, started by either participant."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="gradings")
    submission = models.OneToOneField("grader.Submission", on_delete=models.CASCADE, related_name="room_grading")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]


class RoomQuestion(models.Model):
    """A question the room has moved on from: what the report shows of it. The room's own
    question, exercise, text and marks are always the current question's; moving on records
    them here and resets the document to the next exercise's starter with one more step, so the
    step log stays one sequence and versions `first_version`..`last_version` are this question's."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="past_questions")
    question = models.ForeignKey("questions.Question", on_delete=models.CASCADE, related_name="+")
    exercise = models.ForeignKey("questions.ExerciseVersion", on_delete=models.CASCADE, related_name="+")
    #: The document was the exercise's starter at `first_version` and `text` at `last_version`.
    first_version = models.PositiveIntegerField()
    last_version = models.PositiveIntegerField()
    text = models.TextField()
    rubric_marks = models.JSONField(default=dict, blank=True)
    #: When the room moved on: the gradings started before it (and after the previous move) are this question's.
    left_at = models.DateTimeField()

    class Meta:
        ordering = ["room", "first_version"]
