"""The owner's single sign-on settings: only the owner edits them, the client secret is
sealed and never shown again, a domain is one organisation's, only https providers."""

import pytest

from sso import sealing
from sso import services as sso
from sso.models import IdentityProvider
from teams import services as teams
from teams.models import Membership, Role

pytestmark = pytest.mark.django_db

FORM = {
    "issuer": "https://127.0.0.1:9/realms/acme",
    "client_id": "hotpath",
    "client_secret": "s3cret-value",
    "domains": "acme.test, @Acme.Example\n",
    "enabled": "on",
    "required": "on",
}


def test_the_owner_saves_a_provider_and_the_secret_is_never_shown_again(client, acme, owner, settings):
    settings.SSO_ALLOW_HTTP_LOOPBACK = False
    client.force_login(owner)
    assert 'href="/teams/org/acme/sso/"' in client.get("/teams/org/acme/").text
    response = client.post("/teams/org/acme/sso/", FORM, follow=True)

    provider = IdentityProvider.objects.get(organisation=acme)
    assert provider.domain_names == ["acme.example", "acme.test"] and provider.required and not provider.join_as_member
    assert "s3cret-value" not in provider.client_secret_sealed
    assert sealing.unseal(provider.client_secret_sealed) == "s3cret-value"
    assert "s3cret-value" not in response.text and "could not be reached" in response.text

    client.post("/teams/org/acme/sso/", {**FORM, "client_secret": ""})
    provider.refresh_from_db()
    assert sealing.unseal(provider.client_secret_sealed) == "s3cret-value"


def test_plain_http_and_another_organisations_domain_are_refused(client, acme, owner, make_user, settings):
    settings.SSO_ALLOW_HTTP_LOOPBACK = False
    client.force_login(owner)
    response = client.post("/teams/org/acme/sso/", {**FORM, "issuer": "http://127.0.0.1:8000/o"})
    assert "must start with https://" in response.text
    rival = make_user("rival")
    other = teams.create_organisation(rival, "Rival")
    sso.configure(
        other,
        actor=rival,
        issuer="https://127.0.0.1:9/rival",
        client_id="x",
        client_secret="y",
        domains=["acme.test"],
        enabled=True,
        required=False,
        join_as_member=False,
    )
    response = client.post("/teams/org/acme/sso/", FORM)
    assert "acme.test is already covered by another organisation" in response.text
    assert not IdentityProvider.objects.filter(organisation=acme).exists()


def test_a_reviewer_cannot_open_the_settings(client, acme, make_user):
    reviewer = make_user("reviewer")
    Membership.objects.create(user=reviewer, organisation=acme, role=Role.REVIEWER)
    client.force_login(reviewer)
    assert client.get("/teams/org/acme/sso/").status_code == 403
