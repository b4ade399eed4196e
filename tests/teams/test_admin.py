"""The admin's pages for organisation tokens and webhooks load for a superuser, read-only,
and never show a token's hash or an endpoint's signing secret."""

import secrets

import pytest
from django.urls import reverse

from teams import services
from teams.models import WebhookDelivery, WebhookEndpoint, WebhookEvent
from teams.services.org_tokens import create_token


@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def owner(make_user):
    return make_user("olga")


@pytest.fixture
def organisation(owner):
    return services.create_organisation(owner, "Acme")


def pages(client, model, pk):
    listing = client.get(reverse(f"admin:teams_{model}_changelist"))
    page = client.get(reverse(f"admin:teams_{model}_change", args=[pk]))
    assert listing.status_code == page.status_code == 200
    assert client.get(reverse(f"admin:teams_{model}_add")).status_code == 403
    return listing.content.decode() + page.content.decode()


@pytest.mark.django_db
def test_token_pages_show_the_prefix_only(admin_client, organisation, owner):
    row, token = create_token(organisation, "ATS sync", "reviewer", owner)
    html = pages(admin_client, "organisationtoken", row.pk)
    assert "ATS sync" in html and f"{row.prefix}…" in html
    assert token not in html and row.token_hash not in html


@pytest.mark.django_db
def test_webhook_pages_never_show_the_secret(admin_client, organisation):
    endpoint = WebhookEndpoint.objects.create(
        organisation=organisation, url="https://hooks.acme.test/hotpath", secret=secrets.token_hex(32)
    )
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event=WebhookEvent.SITTING_STARTED, payload={"id": 1})
    html = pages(admin_client, "webhookendpoint", endpoint.pk) + pages(admin_client, "webhookdelivery", delivery.pk)
    assert "https://hooks.acme.test/hotpath" in html
    assert endpoint.secret not in html and endpoint.secret[:8] not in html
