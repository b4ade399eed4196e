"""The room's pages: opening a room, joining it, who sees what, and the report."""

from django.urls import reverse

from rooms import services
from rooms.models import Room
from submissions.services import queueing

from .conftest import STARTER


def test_the_exercise_page_offers_a_room(client, interviewer, exercise):
    client.force_login(interviewer)
    html = client.get(exercise.question.get_absolute_url()).content.decode()
    assert f'action="{reverse("rooms:new")}"' in html and f'name="exercise" value="{exercise.question.slug}"' in html


def test_opening_a_room_starts_from_the_starter_code_and_shows_the_invitation(client, interviewer, exercise):
    client.force_login(interviewer)
    page = client.get(reverse("rooms:new"), {"exercise": exercise.question.slug})
    assert page.status_code == 200
    response = client.post(reverse("rooms:new"), {"exercise": exercise.question.slug})
    room = Room.objects.get()
    assert response.url == room.get_absolute_url()
    assert (room.text, room.interviewer, room.candidate) == (STARTER, interviewer, None)
    html = client.get(room.get_absolute_url()).content.decode()
    assert reverse("rooms:join", args=[room.invite_token]) in html
    assert "Vectorises the loop" in html and 'id="room-notes"' in html
    refused = client.post(reverse("rooms:new"), {"exercise": "no-such-exercise"})
    assert refused.status_code == 400 and "no live coding exercise" in refused.content.decode()


def test_the_candidate_joins_through_the_link_and_sees_no_notes_or_rubric(client, room, candidate):
    room.notes = "Private: strong on NumPy"
    room.save()
    client.force_login(candidate)
    html = client.get(room.get_absolute_url()).content.decode()
    assert "room.bundle.js" in html
    for private in ("room-notes", "Vectorises the loop", "room-invite-link", room.invite_token, "Private"):
        assert private not in html


def test_outsiders_get_nothing_and_a_taken_link_says_so(client, room, outsider):
    client.force_login(outsider)
    assert client.get(room.get_absolute_url()).status_code == 404
    assert client.get(reverse("rooms:report", args=[room.public_id])).status_code == 404
    refused = client.get(reverse("rooms:join", args=[room.invite_token]))
    assert refused.status_code == 403 and "already joined" in refused.content.decode()


def test_an_ended_room_shows_its_report_with_the_notes_for_the_interviewer_only(client, room, interviewer, candidate):
    room.text = "def transform(values):\n    return values * 2\n"
    room.notes = "Explained the trade-off."
    room.save()
    services.end(interviewer, room)
    client.force_login(candidate)
    assert client.get(room.get_absolute_url()).url == reverse("rooms:report", args=[room.public_id])
    report = client.get(reverse("rooms:report", args=[room.public_id])).content.decode()
    assert "return values * 2" in report and "Explained the trade-off." not in report
    client.force_login(interviewer)
    assert "Explained the trade-off." in client.get(reverse("rooms:report", args=[room.public_id])).content.decode()


def test_both_people_follow_a_grading_the_other_started(client, room, interviewer, candidate, outsider, monkeypatch):
    monkeypatch.setattr(queueing, "enqueue", lambda submission: None)  # no worker: it stays queued
    grading = services.start_grading(candidate, room, "practice")
    status_url = reverse("rooms:grading_status", args=[room.public_id, grading.submission_id])
    client.force_login(interviewer)
    status = client.get(status_url).json()
    assert (status["is_final"], status["progress"]["phase"]) == (False, "queued")
    page = client.get(reverse("rooms:grading", args=[room.public_id, grading.submission_id])).content.decode()
    assert "Started by candidate" in page and "return values" in page
    client.force_login(outsider)
    assert client.get(status_url).status_code == 404


def test_closing_the_candidates_account_keeps_the_rooms_step_log_whole(room, candidate):
    services.push(candidate, room, 0, [{"clientID": "c", "changes": [len(STARTER), [0, "# hi"]]}])
    candidate.delete()
    room.refresh_from_db()
    assert (room.candidate, room.version, room.steps.count()) == (None, 1, 1)


def test_the_interviewer_marks_the_rubric_beside_the_editor_and_the_report_shows_the_marks(
    client, room, interviewer, candidate
):
    client.force_login(interviewer)
    assert 'data-mark-point="0"' in client.get(room.get_absolute_url()).content.decode()
    services.save_mark(interviewer, room, 0, 1)
    services.end(interviewer, room)
    report = client.get(reverse("rooms:report", args=[room.public_id])).content.decode()
    assert "Vectorises the loop: <strong>Partly</strong>" in report
    client.force_login(candidate)
    assert "Vectorises the loop" not in client.get(reverse("rooms:report", args=[room.public_id])).content.decode()
