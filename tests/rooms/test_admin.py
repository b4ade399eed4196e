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
