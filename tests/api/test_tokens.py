"""Personal access tokens: stored hashed, shown once, scoped, revocable, expiring."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from api import tokens
from api.models import PersonalAccessToken, Scope

from .conftest import bearer

ME = "/api/v1/me/"


def test_only_a_hash_is_stored(candidate):
    row, token = tokens.create_token(candidate, "laptop", Scope.READ, 30)
    assert token.startswith("hp_") and len(token) > 40
    stored = PersonalAccessToken.objects.values().get(pk=row.pk)
    assert token not in [str(value) for value in stored.values()]
    assert row.token_hash == tokens.hash_token(token) and row.prefix == token[: tokens.PREFIX_SHOWN]


def test_token_page_shows_a_new_token_once_and_lists_it(candidate_client, candidate):
    response = candidate_client.post(
        reverse("api:tokens"), {"name": "laptop", "scope": "submit", "lifetime_days": "90"}
    )
    row = PersonalAccessToken.objects.get(user=candidate)
    page = response.content.decode()
    token_start = page.index('value="hp_') + len('value="')
    token = page[token_start : page.index('"', token_start)]
    assert tokens.find_token(token) == row and response["Cache-Control"] == "no-store"
    again = candidate_client.get(reverse("api:tokens")).content.decode()
    assert token not in again and row.prefix in again and "laptop" in again


def test_profile_links_to_the_tokens_page(candidate_client):
    assert reverse("api:tokens") in candidate_client.get(reverse("accounts:profile")).content.decode()


def test_token_authenticates_and_records_last_use(client, candidate, submit_token):
    response = client.get(ME, **bearer(submit_token))
    assert response.status_code == 200
    assert response.json()["username"] == candidate.username and response.json()["token"]["scope"] == "submit"
    assert PersonalAccessToken.objects.get(user=candidate).last_used_at is not None


@pytest.mark.parametrize(
    "header, code",
    [
        (None, "not_authenticated"),
        ("Bearer hp_not-a-real-token", "token_invalid"),
        ("Bearer", "token_invalid"),
        ("Bearer a b", "token_invalid"),
    ],
)
def test_missing_or_bad_token_is_401_with_a_code(db, client, header, code):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = client.get(ME, **extra)
    assert response.status_code == 401 and response.json()["code"] == code
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_revoked_token_is_401(client, candidate, candidate_client, submit_token):
    row = PersonalAccessToken.objects.get(user=candidate)
    assert client.get(ME, **bearer(submit_token)).status_code == 200
    candidate_client.post(reverse("api:revoke_token", args=[row.pk]))
    response = client.get(ME, **bearer(submit_token))
    assert response.status_code == 401 and response.json()["code"] == "token_revoked"


def test_expired_token_is_401(client, candidate, submit_token):
    PersonalAccessToken.objects.filter(user=candidate).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.get(ME, **bearer(submit_token))
    assert response.status_code == 401 and response.json()["code"] == "token_expired"


def test_nobody_revokes_another_persons_token(client, outsider, candidate, submit_token):
    row = PersonalAccessToken.objects.get(user=candidate)
    client.force_login(outsider)
    client.post(reverse("api:revoke_token", args=[row.pk]))
    row.refresh_from_db()
    assert row.revoked_at is None


def test_bad_names_and_lifetimes_are_refused(candidate):
    with pytest.raises(Exception, match="name"):
        tokens.create_token(candidate, "  ", Scope.READ, 30)
    with pytest.raises(Exception, match="days"):
        tokens.create_token(candidate, "x", Scope.READ, 10_000)


def test_session_still_works_for_the_browser(candidate_client, candidate):
    response = candidate_client.get(ME)
    assert response.status_code == 200 and response.json()["token"] is None
