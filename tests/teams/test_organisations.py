"""Organisations, members and building an assessment."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from teams import services
from teams.models import Assessment, Membership, Role

pytestmark = pytest.mark.django_db

JOIN_LINK = re.compile(r"http://testserver(/teams/join/[^/\s]+/)")


def test_creating_an_organisation_makes_you_owner(client, candidate):
    client.force_login(candidate)
    response = client.post(reverse("teams:create"), {"name": "Fast Co"})
    membership = Membership.objects.get(user=candidate)
    assert membership.role == Role.OWNER
    assert response["Location"] == reverse("teams:organisation", args=[membership.organisation.slug])


def test_slugs_stay_unique(hiring_manager, make_user):
    first = services.create_organisation(hiring_manager, "Same Name")
    second = services.create_organisation(make_user("second"), "Same Name")
    assert first.slug != second.slug


def invite_member(client, owner, organisation, email, mailoutbox, capture):
    client.force_login(owner)
    with capture(execute=True):
        client.post(reverse("teams:invite_member", args=[organisation.slug]), {"email": email, "role": "reviewer"})
    client.logout()
    return JOIN_LINK.search(mailoutbox[-1].body).group(1)


def test_member_invitation_by_email(
    client, hiring_manager, organisation, make_user, mailoutbox, django_capture_on_commit_callbacks
):
    link = invite_member(
        client, hiring_manager, organisation, "colleague@example.com", mailoutbox, django_capture_on_commit_callbacks
    )
    assert mailoutbox[-1].to == ["colleague@example.com"]

    anonymous = client.post(link)
    assert anonymous["Location"].startswith("/accounts/login/")

    colleague = make_user("colleague")
    client.force_login(colleague)
    joined = client.post(link)
    assert joined["Location"] == reverse("teams:organisation", args=[organisation.slug])
    assert Membership.objects.get(user=colleague).role == Role.REVIEWER

    client.force_login(make_user("forwarded-to"))
    reused = client.post(link)
    assert "already been used" in reused.content.decode()


def test_member_invitation_needs_the_invited_address(
    client, hiring_manager, organisation, outsider, mailoutbox, django_capture_on_commit_callbacks
):
    link = invite_member(
        client, hiring_manager, organisation, "someone@example.com", mailoutbox, django_capture_on_commit_callbacks
    )
    client.force_login(outsider)
    response = client.post(link)
    assert "This invitation is for someone@example.com" in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()


def test_member_invitation_expires(hiring_manager, organisation, make_user, clock):
    tokens = []
    invitation = services.invite_member(organisation, "late@example.com", Role.REVIEWER, hiring_manager, tokens.append)
    clock.advance(days=8)
    with pytest.raises(services.TeamsError, match="expired"):
        services.accept_member_invitation(invitation, make_user("late"))


def test_the_last_owner_cannot_be_removed(hiring_manager, organisation):
    with pytest.raises(services.TeamsError, match="at least one owner"):
        services.remove_member(hiring_manager.memberships.get(), hiring_manager)


def test_owner_builds_and_publishes_an_assessment(
    client, hiring_manager, organisation, concept_question, coding_question, make_version
):
    make_version(1)
    client.force_login(hiring_manager)
    client.post(
        reverse("teams:assessment_create", args=[organisation.slug]),
        {
            "title": "Screen",
            "instructions": "",
            "time_limit_minutes": 45,
            "opens_at": "2030-01-01T09:00",
            "closes_at": "2099-01-01T09:00",
        },
    )
    assessment = Assessment.objects.get()
    for question in (coding_question, concept_question):
        client.post(reverse("teams:add_question", args=[organisation.slug, assessment.pk]), {"question": question.pk})
    coding_item = assessment.items.get(question=coding_question)
    client.post(
        reverse("teams:move_item", args=[organisation.slug, assessment.pk, coding_item.pk]), {"direction": "down"}
    )
    assert [item.question for item in assessment.items.all()] == [concept_question, coding_question]

    client.post(reverse("teams:publish", args=[organisation.slug, assessment.pk]))
    assessment.refresh_from_db()
    assert assessment.is_published
    assert assessment.items.get(question=coding_question).exercise_version.number == 1

    # A later edit of the exercise makes v2; the published assessment stays on v1.
    make_version(2)
    assert assessment.items.get(question=coding_question).exercise_version.number == 1
    response = client.post(
        reverse("teams:remove_item", args=[organisation.slug, assessment.pk, coding_item.pk]), follow=True
    )
    assert "can no longer change" in response.content.decode()
    assert assessment.items.count() == 2


def test_a_new_assessment_form_starts_open_from_now_for_two_weeks(client, hiring_manager, organisation, clock):
    client.force_login(hiring_manager)
    page = client.get(reverse("teams:assessment_create", args=[organisation.slug])).content.decode()
    opens_at = clock.now.replace(second=0, microsecond=0)
    assert f'value="{opens_at:%Y-%m-%dT%H:%M}"' in page
    assert f'value="{opens_at + timedelta(days=14):%Y-%m-%dT%H:%M}"' in page
    assert 'name="time_limit_minutes" value="60"' in page
    # Saved as offered, it opens at once.
    client.post(
        reverse("teams:assessment_create", args=[organisation.slug]),
        {
            "title": "Screen",
            "time_limit_minutes": 60,
            "opens_at": f"{opens_at:%Y-%m-%dT%H:%M}",
            "closes_at": f"{opens_at + timedelta(days=14):%Y-%m-%dT%H:%M}",
        },
    )
    assessment = Assessment.objects.get()
    assert assessment.opens_at == opens_at and assessment.closes_at - assessment.opens_at == timedelta(days=14)


def test_assessment_window_must_make_sense(client, hiring_manager, organisation):
    client.force_login(hiring_manager)
    response = client.post(
        reverse("teams:assessment_create", args=[organisation.slug]),
        {
            "title": "Backwards",
            "time_limit_minutes": 30,
            "opens_at": "2030-01-02T09:00",
            "closes_at": "2030-01-01T09:00",
        },
    )
    assert "The window must close after it opens." in response.content.decode()
    assert not Assessment.objects.exists()


def test_publishing_needs_questions(organisation, hiring_manager, clock):
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Empty",
        time_limit_minutes=10,
        opens_at=clock.now,
        closes_at=clock.now + timedelta(days=1),
    )
    with pytest.raises(services.TeamsError, match="at least one question"):
        services.publish_assessment(assessment, hiring_manager)


def test_candidates_can_only_be_invited_once_published(draft_assessment, hiring_manager):
    with pytest.raises(services.TeamsError, match="Publish"):
        services.invite_candidate(draft_assessment, "a@example.com", hiring_manager, str)


def test_duplicate_candidate_invitations_are_refused(invite):
    invite("twice@example.com")
    with pytest.raises(services.TeamsError, match="already been invited"):
        invite("Twice@Example.com")


def test_token_is_stored_only_as_a_hash(invite):
    invitation, token = invite("hashed@example.com")
    assert token not in invitation.token_hash
    assert invitation.token_hash == services.hash_token(token)
