"""Single sign-on in Chromium, end to end: from the sign-in page, a work address leads
to the organisation's identity provider (a real OpenID Connect provider, tests/sso), and
signing in there comes back signed in here, as a new, verified member."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.verification import is_verified
from sso import services as sso
from teams import services as teams
from teams.models import Membership, Role
from tests.sso.provider import CLIENT_ID, CLIENT_SECRET, PASSWORD, running_provider

pytestmark = [pytest.mark.browser]


@pytest.fixture
def acme_provider(live_server, transactional_db, tmp_path, settings):
    settings.SSO_ALLOW_HTTP_LOOPBACK = True
    owner = get_user_model().objects.create_user("acme-owner", "owner@example.com", "owner-passphrase-42")
    acme = teams.create_organisation(owner, "Acme")
    with running_provider(tmp_path, f"{live_server.url}/sso/{acme.slug}/callback/") as provider:
        sso.configure(
            acme,
            actor=owner,
            issuer=provider.issuer,
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            domains=["acme.test"],
            enabled=True,
            required=False,
            join_as_member=True,
        )
        yield acme


def test_a_member_signs_in_through_the_organisations_provider(open_page, acme_provider):
    page = open_page()
    page.goto("/accounts/login/?next=/teams/")
    page.get_by_role("link", name="Sign in with your organisation's single sign-on").click()
    page.get_by_label("Your work e-mail").fill("alice@acme.test")
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("link", name="Sign in with Acme SSO").click()

    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    page.wait_for_url("**/teams/")
    expect(page.get_by_text("Signed in through Acme's single sign-on.")).to_be_visible()
    alice = get_user_model().objects.get(email="alice@acme.test")
    assert is_verified(alice)
    assert Membership.objects.get(user=alice, organisation=acme_provider).role == Role.REVIEWER
    assert not open_page.errors
