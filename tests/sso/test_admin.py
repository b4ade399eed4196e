"""The admin's single sign-on pages load for a superuser, read-only, and never show the client secret."""

import pytest
from django.urls import reverse

from sso.models import ClaimedDomain, IdentityProvider, ProviderIdentity
from sso.sealing import seal
from teams import services as teams

SECRET = "client-secret-never-shown"


@pytest.fixture
def provider(owner):
    organisation = teams.create_organisation(owner, "Acme")
    provider = IdentityProvider.objects.create(
        organisation=organisation, issuer="https://id.acme.test", client_id="hotpath", client_secret_sealed=seal(SECRET)
    )
    ClaimedDomain.objects.create(provider=provider, name="acme.test")
    ProviderIdentity.objects.create(provider=provider, subject="sub-1", user=owner)
    return provider


@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.django_db
def test_provider_pages_load_without_the_secret(admin_client, provider):
    listing = admin_client.get(reverse("admin:sso_identityprovider_changelist"))
    assert listing.status_code == 200
    assert "https://id.acme.test" in listing.content.decode()
    page = admin_client.get(reverse("admin:sso_identityprovider_change", args=[provider.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "acme.test" in html
    assert SECRET not in html and provider.client_secret_sealed not in html
    assert 'name="issuer"' not in html  # view only


@pytest.mark.django_db
def test_identities_list_loads_and_nothing_is_added_by_hand(admin_client, provider):
    listing = admin_client.get(reverse("admin:sso_provideridentity_changelist"))
    assert listing.status_code == 200
    assert "sub-1" in listing.content.decode()
    assert admin_client.get(reverse("admin:sso_identityprovider_add")).status_code == 403
