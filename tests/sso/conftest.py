"""A real OpenID Connect provider (django-oauth-toolkit, provider_site.py) running in its
own process on 127.0.0.1 for this directory's tests, with an RSA signing key made here,
and an organisation whose single sign-on points at it."""

import pytest

from sso import services as sso
from teams import services as teams

from .provider import CLIENT_ID, CLIENT_SECRET, running_provider


@pytest.fixture(scope="session")
def oidc_provider(tmp_path_factory):
    with running_provider(tmp_path_factory.mktemp("oidc-provider"), "http://testserver/sso/acme/callback/") as provider:
        yield provider


@pytest.fixture(autouse=True)
def loopback_providers(settings):
    settings.SSO_ALLOW_HTTP_LOOPBACK = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(make_user):
    return make_user("owner", email="owner@example.com")


@pytest.fixture
def acme(owner):
    organisation = teams.create_organisation(owner, "Acme")
    assert organisation.slug == "acme"
    return organisation


@pytest.fixture
def acme_sso(acme, owner, oidc_provider):
    """Acme's single sign-on through the test provider, covering acme.test, joining new members."""
    return sso.configure(
        acme,
        actor=owner,
        issuer=oidc_provider.issuer,
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        domains=["acme.test"],
        enabled=True,
        required=False,
        join_as_member=True,
    )
