"""The admin's room pages load for a superuser; a room is read-only there but for its
invitation's expiry, and the invitation token is never shown."""

import pytest
from django.urls import reverse


@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.django_db
def test_room_pages_load_without_the_invitation_token(admin_client, room):
    listing = admin_client.get(reverse("admin:rooms_room_changelist"))
    assert listing.status_code == 200
    assert str(room.public_id) in listing.content.decode()
    page = admin_client.get(reverse("admin:rooms_room_change", args=[room.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert room.invite_token not in html
    assert 'name="invite_expires_at_0"' in html
    assert 'name="text"' not in html and 'name="state"' not in html
    assert admin_client.get(reverse("admin:rooms_room_add")).status_code == 403


@pytest.mark.django_db
def test_the_questions_a_room_moved_on_from_are_listed_read_only_and_shown_on_the_room(admin_client, moved_room):
    room, _, _ = moved_room
    item = room.past_questions.get()
    listing = admin_client.get(reverse("admin:rooms_roomquestion_changelist"), {"q": "ivy"})
    assert listing.status_code == 200
    assert [row.pk for row in listing.context["cl"].result_list] == [item.pk]
    assert str(room.public_id) in listing.content.decode()
    assert (
        admin_client.get(reverse("admin:rooms_roomquestion_changelist"), {"q": "nobody"}).context["cl"].result_count
        == 0
    )
    page = admin_client.get(reverse("admin:rooms_roomquestion_change", args=[item.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "# first" in html
    assert 'name="text"' not in html and 'name="rubric_marks"' not in html and 'name="_save"' not in html
    assert admin_client.get(reverse("admin:rooms_roomquestion_add")).status_code == 403

    html = admin_client.get(reverse("admin:rooms_room_change", args=[room.pk])).content.decode()
    assert reverse("admin:rooms_roomquestion_change", args=[item.pk]) in html
    assert 'name="rubric_marks"' not in html  # the interviewer's marks are theirs to set, not staff's


@pytest.mark.django_db
def test_a_room_that_moved_on_can_still_be_deleted(admin_client, moved_room):
    room, _, _ = moved_room
    response = admin_client.post(reverse("admin:rooms_room_delete", args=[room.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not type(room).objects.filter(pk=room.pk).exists()
