"""Looking up an address's single sign-on at /sso/ tells whether its domain uses it, so the
look-ups are limited per client address (sso/ratelimits.py), with a 429 page past the rate."""

import pytest
from django.core.cache import cache

from sso.models import ClaimedDomain, IdentityProvider
from sso.sealing import seal
from teams import services as teams

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Rate limits live in the cache: give each test a fresh in-memory one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sso-rates"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def acme_provider(owner):
    provider = IdentityProvider.objects.create(
        organisation=teams.create_organisation(owner, "Acme"),
        issuer="https://id.acme.test",
        client_id="hotpath",
        client_secret_sealed=seal("secret"),
    )
    ClaimedDomain.objects.create(provider=provider, name="acme.test")


def look_up(client, email, address="10.0.0.1"):
    return client.post("/sso/", {"email": email}, REMOTE_ADDR=address)


def test_look_ups_are_limited_per_address(client, settings):
    settings.SSO_FIND_RATE = "2/m"
    assert client.get("/sso/", REMOTE_ADDR="10.0.0.1").status_code == 200  # showing the form is no look-up
    statuses = [look_up(client, email).status_code for email in ("a@acme.test", "b@elsewhere.test", "c@acme.test")]
    assert statuses == [302, 200, 429]
    blocked = look_up(client, "d@acme.test")
    assert blocked.status_code == 429
    html = blocked.content.decode()
    assert "Too many look-ups from here" in html and "Wait a few minutes" in html
    assert "/sso/acme/" not in html  # no answer about the domain
    assert look_up(client, "a@acme.test", address="10.0.0.2").status_code == 302
