"""A person's interview rooms: in their data export, listed on "Your interview rooms", and as closing an
account leaves them."""

import pytest
from django.urls import reverse

from mydata import services as mydata
from rooms import services
from rooms.models import Room, RoomGrading, RoomKind, RoomState
from submissions.models import Purpose, Submission
from tests.rooms.conftest import STARTER, _quick_check

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


def test_every_question_the_room_was_on_is_exported_with_its_code_gradings_and_marks(
    moved_room, interviewer, candidate, second_exercise
):
    room, first_check, second_check = moved_room
    services.save_notes(interviewer, room, "Strong on the second one.")

    [led] = mydata.export(interviewer)["interview_rooms"]
    [joined] = mydata.export(candidate)["interview_rooms"]
    for row in (led, joined):
        first, second = row["questions"]
        assert (first["number"], first["exercise"], first["exercise_version"]) == (1, "square-values", 1)
        assert first["program"] == STARTER + "# first" and first["left_at"]
        assert (first["first_version"], first["last_version"]) == (0, 1)
        assert (second["number"], second["exercise"], second["left_at"]) == (2, "sum-values", None)
        assert second["program"] == second_exercise.starter_code == row["program"]
        assert (second["first_version"], second["last_version"]) == (2, room.version)
    first, second = joined["questions"]
    assert first["gradings"] == [first_check.pk] and second["gradings"] == [second_check.pk]
    assert joined["gradings"] == [first_check.pk, second_check.pk]
    assert first["rubric_marks"] is None and second["rubric_marks"] is None and joined["rubric_marks"] is None

    first, second = led["questions"]
    assert first["gradings"] == second["gradings"] == []  # the candidate started them
    assert first["rubric_marks"] == [{"point": "Vectorises the loop", "mark": 2}]
    assert second["rubric_marks"] == led["rubric_marks"]
    assert led["rubric_marks"] == [
        {"point": "Uses the built-in sum", "mark": None},
        {"point": "Names the overflow risk", "mark": 1},
    ]
    assert led["notes"] == "Strong on the second one." and joined["notes"] is None


def test_a_room_that_never_moved_exports_its_one_question(room, interviewer):
    services.save_mark(interviewer, room, 0, 0)
    [led] = mydata.export(interviewer)["interview_rooms"]
    [only] = led["questions"]
    assert (only["number"], only["exercise"], only["left_at"], only["program"]) == (1, "square-values", None, room.text)
    assert only["rubric_marks"] == led["rubric_marks"] == [{"point": "Vectorises the loop", "mark": 0}]


def _closing_setup(room, interviewer, candidate):
    """Each of the two typed a line in `room`, the interviewer wrote notes, the candidate ran a quick check."""
    services.push(candidate, room, 0, [{"clientID": "c", "changes": [len(STARTER), [0, "# mine"]]}])
    room.refresh_from_db()
    services.push(interviewer, room, 1, [{"clientID": "i", "changes": [len(room.text), [0, "# theirs"]]}])
    services.save_notes(interviewer, room, "Needed a hint on the loop.")
    room.refresh_from_db()
    return _quick_check(room, candidate)


def test_closing_the_candidates_account_leaves_the_room_to_the_interviewer_without_their_edits_named(
    room, interviewer, candidate
):
    check = _closing_setup(room, interviewer, candidate)
    program = room.text

    mydata.close_account(candidate)
    room.refresh_from_db()
    assert room.state == RoomState.ENDED and room.ended_at and room.text == program
    assert room.notes == "Needed a hint on the loop."  # the interviewer's, about the interview they held
    assert [(step.version, step.author_id) for step in room.steps.order_by("version")] == [
        (0, None),
        (1, interviewer.pk),
    ]
    assert not RoomGrading.objects.filter(submission_id=check.pk).exists()  # the closed account's own check
    [led] = mydata.export(interviewer)["interview_rooms"]
    assert led["program"] == program and led["notes"] == "Needed a hint on the loop."
    assert room.candidate.get_username() == f"deleted-{candidate.pk}"


def test_closing_the_interviewers_account_clears_their_notes_and_marks_and_leaves_the_room_to_the_candidate(
    moved_room, interviewer, candidate
):
    room, first_check, second_check = moved_room
    services.save_notes(interviewer, room, "Strong on the second one.")

    mydata.close_account(interviewer)
    room.refresh_from_db()
    assert room.state == RoomState.ENDED and room.notes == "" and room.rubric_marks == {}
    assert [past.rubric_marks for past in room.past_questions.all()] == [{}]
    assert not room.steps.filter(author=interviewer).exists()
    assert room.steps.filter(author=candidate).count() == 1  # the candidate's line keeps its author
    assert set(room.gradings.values_list("submission_id", flat=True)) == {first_check.pk, second_check.pk}
    [joined] = mydata.export(candidate)["interview_rooms"]
    assert [question["exercise"] for question in joined["questions"]] == ["square-values", "sum-values"]
    assert joined["program"] == room.text and joined["state"] == "ended"


def test_closing_deletes_the_rooms_no_one_else_is_in_and_ends_a_peer_invitation_to_the_closed_account(
    exercise, interviewer, candidate
):
    waiting = services.open_room(interviewer, exercise.question.slug)
    services.save_notes(interviewer, waiting, "Ask about caches.")
    invited = services.open_room(candidate, exercise.question.slug)
    Room.objects.filter(pk=invited.pk).update(kind=RoomKind.PEER, invitee=interviewer)

    mydata.close_account(interviewer)
    assert not Room.objects.filter(pk=waiting.pk).exists()
    invited.refresh_from_db()
    assert invited.state == RoomState.ENDED and invited.interviewer == candidate  # the inviter's room
    with pytest.raises(services.RoomRefused, match="ended"):
        services.join(interviewer, invited.invite_token)
