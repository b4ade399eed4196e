"""Messages to everyone in a room, over the channel layer (Redis across processes when
REDIS_URL is set; in one process otherwise, where the pages' polling of each grading
still brings its result)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.urls import reverse

from .models import RoomGrading

logger = logging.getLogger(__name__)


def send(room, message):
    """Relay `message` (a dict with "event") to every connection in `room`."""
    async_to_sync(get_channel_layer().group_send)(room.group_name, {"type": "room.event", "message": message})


def grading_message(grading):
    submission = grading.submission
    return {
        "event": "grading",
        "id": submission.pk,
        "purpose": submission.get_purpose_display(),
        "by": grading.started_by.get_username(),
        "status_url": reverse("rooms:grading_status", args=[grading.room.public_id, submission.pk]),
        "report_url": reverse("rooms:grading", args=[grading.room.public_id, submission.pk]),
    }


def announce_graded(sender, submission, **kwargs):
    """submission_graded's receiver: tell the room a grading started there has its result.
    A channel layer out of reach is logged, never raised into the grading: the room's
    pages poll each grading's status and find the result anyway."""
    grading = (
        RoomGrading.objects.select_related("room", "started_by", "submission").filter(submission=submission).first()
    )
    if grading is None:
        return
    try:
        send(grading.room, {**grading_message(grading), "event": "graded", "verdict": submission.verdict_label})
    except Exception:
        logger.warning(
            "could not tell room %s that submission %s was graded", grading.room.public_id, submission.pk, exc_info=True
        )
