"""A person's interview rooms: in their data export, and listed on "Your interview rooms"."""

import pytest
from django.urls import reverse

from mydata import services as mydata
from rooms import services
from rooms.models import RoomGrading
from submissions.models import Purpose, Submission

pytestmark = pytest.mark.django_db


def test_rooms_are_exported_with_the_notes_for_the_interviewer_only(room, interviewer, candidate, outsider):
    services.save_notes(interviewer, room, "Spotted the quadratic loop.")
    submission = Submission.objects.create(
        user=candidate, exercise=room.exercise, code=room.text, purpose=Purpose.QUICK_CHECK
    )
    RoomGrading.objects.create(room=room, submission=submission, started_by=candidate)
    services.end(interviewer, room)

    [led] = mydata.export(interviewer)["interview_rooms"]
    [joined] = mydata.export(candidate)["interview_rooms"]
    assert led["role"] == "interviewer" and led["notes"] == "Spotted the quadratic loop." and led["gradings"] == []
    assert joined["role"] == "candidate" and joined["notes"] is None and joined["gradings"] == [submission.pk]
    for row in (led, joined):
        assert row["exercise"] == "square-values" and row["state"] == "ended" and row["ended_at"]
        assert row["kind"] == "interview"
        assert row["program"] == room.text
    assert mydata.export(outsider)["interview_rooms"] == []


def test_your_rooms_lists_open_and_ended_rooms_with_their_links(client, room, interviewer, candidate, exercise):
    waiting = services.open_room(interviewer, exercise.question.slug)
    services.end(interviewer, room)

    client.force_login(interviewer)
    html = client.get(reverse("rooms:mine")).content.decode()
    assert html.count("Interviewer</td>") == 2
    assert "No one has joined yet" in html and reverse("rooms:room", args=[waiting.public_id]) in html
    assert reverse("rooms:report", args=[room.public_id]) in html and "candidate" in html

    client.force_login(candidate)
    html = client.get(reverse("rooms:mine")).content.decode()
    assert "Candidate</td>" in html and reverse("rooms:report", args=[room.public_id]) in html
    assert str(waiting.public_id) not in html


def test_your_rooms_is_for_signed_in_people_and_linked_from_the_profile(client, outsider):
    assert client.get(reverse("rooms:mine")).status_code == 302
    client.force_login(outsider)
    assert "No interview rooms yet" in client.get(reverse("rooms:mine")).content.decode()
    assert reverse("rooms:mine") in client.get(reverse("accounts:profile")).content.decode()
