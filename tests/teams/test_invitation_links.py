"""The owner copies a candidate's invitation link from the assessment page: shown once, just
after the invitations are sent (only the token's hash is stored), or as a new link that
replaces the one sent."""

import re

import pytest
from django.urls import reverse

from teams import services
from teams.models import CandidateInvitation

pytestmark = pytest.mark.django_db

FIELD = re.compile(
    r'<input type="text" id="invitation-link-\d+" value="(http://testserver/teams/invitation/[^"]+/)" readonly'
)
LINK = re.compile(r"http://testserver/teams/invitation/[^/\s]+/")


def manage_page(client, assessment):
    return client.get(reverse("teams:assessment", args=[assessment.organisation.slug, assessment.pk])).content.decode()


def test_the_links_just_sent_are_shown_once_with_a_copy_button(
    client, hiring_manager, assessment, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(hiring_manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("teams:invite_candidates", args=[assessment.organisation.slug, assessment.pk]),
            {"emails": "ada@example.com, bob@example.com"},
        )
    assert response["Location"].endswith("#invitation-links")
    html = manage_page(client, assessment)
    mailed = {message.to[0]: LINK.search(message.body).group(0) for message in mailoutbox}
    assert FIELD.findall(html) == [mailed["ada@example.com"], mailed["bob@example.com"]]
    assert html.count('data-copy="invitation-link-') == 2 and "Copy invitation link" in html
    assert "js/copy-field.js" in html
    assert client.get(FIELD.findall(html)[0]).status_code == 200  # the copied link is the candidate's
    assert not FIELD.search(manage_page(client, assessment))  # once: the next view has only the hashes


def test_a_new_link_replaces_the_one_sent(client, hiring_manager, assessment, invite, candidate):
    invitation, old_token = invite("ada@example.com")
    client.force_login(hiring_manager)
    assert "New link to copy" in manage_page(client, assessment)
    response = client.post(reverse("teams:candidate_link", args=[assessment.organisation.slug, invitation.pk]))
    assert response["Location"].endswith("#invitation-links")
    [url] = FIELD.findall(manage_page(client, assessment))
    new_token = url.rstrip("/").rsplit("/", 1)[1]
    assert services.candidate_invitation_for_token(new_token) == invitation
    assert services.candidate_invitation_for_token(old_token) is None


def test_no_new_link_once_the_candidate_started(client, hiring_manager, assessment, session):
    client.force_login(hiring_manager)
    assert "New link to copy" not in manage_page(client, assessment)
    before = session.invitation.token_hash
    client.post(reverse("teams:candidate_link", args=[assessment.organisation.slug, session.invitation.pk]))
    assert CandidateInvitation.objects.get(pk=session.invitation.pk).token_hash == before
    assert "already started" in manage_page(client, assessment)


def test_only_owners_make_links(client, reviewer, assessment, invite):
    invitation, _ = invite("ada@example.com")
    client.force_login(reviewer)
    assert "New link to copy" not in manage_page(client, assessment)
    response = client.post(reverse("teams:candidate_link", args=[assessment.organisation.slug, invitation.pk]))
    assert response.status_code == 403


def test_another_organisation_cannot_reach_the_link(client, other_org_member, assessment, invite):
    invitation, _ = invite("ada@example.com")
    client.force_login(other_org_member)
    response = client.post(reverse("teams:candidate_link", args=[assessment.organisation.slug, invitation.pk]))
    assert response.status_code == 404
