"""Signing in through an organisation's identity provider: a real OpenID Connect
provider (conftest.py), the site's own views, the whole redirect flow."""

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages

from accounts.verification import is_verified
from sso import services as sso
from sso.models import ProviderIdentity
from teams.models import Membership, Role

from .provider import CLIENT_ID, rsa_key_pem

pytestmark = pytest.mark.django_db


def start(client, slug="acme"):
    """Press "Sign in with Acme SSO": the redirect to the provider."""
    response = client.get(f"/sso/{slug}/go/")
    assert response.status_code == 302
    return response["Location"]


def sign_in(client, provider, username):
    """The whole flow: our start, the provider's sign-in, our callback. The callback's answer."""
    return client.get(provider.authorize(start(client), username))


def signed_in_user(client):
    return get_user_model().objects.filter(pk=client.session.get("_auth_user_id")).first()


def error_text(response):
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def test_first_sign_in_creates_a_verified_member_and_the_next_one_finds_it(client, acme_sso, oidc_provider):
    redirect = start(client)
    query = parse_qs(urlsplit(redirect).query)
    assert redirect.startswith(oidc_provider.issuer)
    assert query["code_challenge_method"] == ["S256"] and query["nonce"] and query["state"]

    response = client.get(oidc_provider.authorize(redirect, "alice"))

    assert response.status_code == 302
    user = signed_in_user(client)
    assert user.email == "alice@acme.test" and is_verified(user) and not user.has_usable_password()
    assert Membership.objects.get(user=user, organisation=acme_sso.organisation).role == Role.REVIEWER
    client.logout()
    sign_in(client, oidc_provider, "alice")
    assert signed_in_user(client) == user
    assert ProviderIdentity.objects.filter(user=user).count() == 1


def test_an_account_that_verified_the_address_is_linked_and_an_unverified_one_is_not(
    client, acme_sso, oidc_provider, make_user
):
    acme_sso.join_as_member = False
    acme_sso.save()
    bob = make_user("bob-here", email="bob@acme.test")
    squatter = make_user("carol-squatter", verified=False, email="carol@acme.test")

    sign_in(client, oidc_provider, "bob")
    assert signed_in_user(client) == bob
    assert not Membership.objects.filter(user=bob, organisation=acme_sso.organisation).exists()

    client.logout()
    sign_in(client, oidc_provider, "carol")
    carol = signed_in_user(client)
    assert carol != squatter and carol.email == "carol@acme.test" and is_verified(carol)


def test_a_callback_with_another_state_is_refused(client, acme_sso, oidc_provider):
    back = urlsplit(oidc_provider.authorize(start(client), "alice"))
    query = {key: values[0] for key, values in parse_qs(back.query).items()}
    response = client.get(f"{back.path}?{urlencode({**query, 'state': 'forged-' + query['state']})}")
    assert response["Location"] == "/sso/acme/"
    assert "state does not match" in error_text(response)
    assert signed_in_user(client) is None


def test_a_token_signed_by_a_key_the_provider_does_not_publish_is_refused(client, acme_sso, oidc_provider):
    oidc_provider.published_key_file.write_text(rsa_key_pem())
    try:
        response = sign_in(client, oidc_provider, "alice")
    finally:
        oidc_provider.published_key_file.unlink()
    assert "valid signature" in error_text(response)
    assert signed_in_user(client) is None


def test_a_deactivated_account_is_not_signed_in(client, acme_sso, oidc_provider, make_user):
    make_user("bob-here", email="bob@acme.test", is_active=False)
    response = sign_in(client, oidc_provider, "bob")
    assert "The account for bob@acme.test is deactivated" in error_text(response)
    assert signed_in_user(client) is None


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("unverified", "has not verified unverified@acme.test"),
        ("outsider", "outsider@elsewhere.test is not in a domain Acme covers (acme.test)"),
    ],
)
def test_an_address_the_provider_did_not_verify_or_outside_the_domains_is_refused(
    client, acme_sso, oidc_provider, username, message
):
    response = sign_in(client, oidc_provider, username)
    assert message in error_text(response)
    assert signed_in_user(client) is None


def test_a_wrong_client_secret_is_named(client, owner, acme_sso, oidc_provider):
    sso.configure(
        acme_sso.organisation,
        actor=owner,
        issuer=oidc_provider.issuer,
        client_id=CLIENT_ID,
        client_secret="wrong",
        domains=["acme.test"],
        enabled=True,
        required=False,
        join_as_member=True,
    )
    response = sign_in(client, oidc_provider, "alice")
    assert "did not accept Hotpath's client id and secret" in error_text(response)
    assert signed_in_user(client) is None


def test_a_provider_that_is_down_is_named(client, owner, acme):
    sso.configure(
        acme,
        actor=owner,
        issuer="http://127.0.0.1:9/o",
        client_id=CLIENT_ID,
        client_secret="secret",
        domains=["acme.test"],
        enabled=True,
        required=False,
        join_as_member=True,
    )
    response = client.get("/sso/acme/go/")
    assert response["Location"] == "/sso/acme/"
    assert "could not be reached" in error_text(response)


def test_typing_an_address_in_a_claimed_domain_leads_to_its_provider(client, acme_sso, oidc_provider):
    response = client.post("/sso/", {"email": "Someone@ACME.test", "next": "/teams/"})
    assert response.status_code == 302 and response["Location"] == "/sso/acme/?next=%2Fteams%2F"
    assert 'href="/sso/acme/go/?next=%2Fteams%2F"' in client.get(response["Location"]).text
    response = client.post("/sso/", {"email": "someone@elsewhere.test"})
    assert response.status_code == 200 and "No organisation signs in through single sign-on" in response.text


def test_an_organisation_requiring_sso_refuses_its_members_password(client, acme_sso, make_user):
    member = make_user("dana", email="dana@acme.test")
    Membership.objects.create(user=member, organisation=acme_sso.organisation, role=Role.REVIEWER)
    credentials = {"username": "dana", "password": "correct-horse-battery"}
    assert client.post("/accounts/login/", credentials).status_code == 302
    client.logout()
    acme_sso.required = True
    acme_sso.save()

    response = client.post("/accounts/login/", credentials)

    assert response.status_code == 200 and signed_in_user(client) is None
    assert 'Acme requires its single sign-on for your address: <a href="/sso/acme/">' in response.text
