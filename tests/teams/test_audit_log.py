"""The organisation's audit log (teams.services.audit): each audited action leaves exactly one
entry naming its actor, a person or an organisation token, written by the service that acts;
the log page and its CSV are the owners' alone."""

import csv
import io

import pytest
from django.urls import reverse

from submissions.services import lifecycle
from teams import services
from teams.models import AuditAction, AuditEntry, OrganisationToken, Role
from teams.services import audit, org_tokens
from teams.views.audit import AUDIT_PAGE_SIZE

pytestmark = pytest.mark.django_db

ACCEPTED = {
    "verdict": "accepted",
    "speedup": 4.0,
    "speedup_ci": [3.5, 4.5],
    "message": "accepted",
    "hardware": "cpu",
    "peak_memory_bytes": 2**20,
    "reference_peak_memory_bytes": 2**20,
}


def bearer(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def only_entry(action):
    """The one entry for `action` (failing when there are none or several)."""
    entries = list(AuditEntry.objects.filter(action=action))
    assert len(entries) == 1, f"{len(entries)} entries for {action}"
    return entries[0]


@pytest.fixture
def owner_client(client, hiring_manager):
    client.force_login(hiring_manager)
    return client


@pytest.fixture
def owner_token(organisation, hiring_manager):
    return org_tokens.create_token(organisation, "ATS", Role.OWNER, hiring_manager)


def test_building_an_assessment_is_recorded_with_its_owner(
    owner_client, hiring_manager, organisation, coding_question, make_version, clock
):
    make_version(1)
    slug = organisation.slug
    form = {
        "title": "Screen",
        "instructions": "",
        "time_limit_minutes": 45,
        "opens_at": "2030-01-01T09:00",
        "closes_at": "2099-01-01T09:00",
    }
    owner_client.post(reverse("teams:assessment_create", args=[slug]), form)
    created = only_entry(AuditAction.ASSESSMENT_CREATED)
    assessment = organisation.assessments.get()
    assert (created.actor_user, created.target_id, created.target_label) == (hiring_manager, assessment.pk, "Screen")

    owner_client.post(reverse("teams:assessment_edit", args=[slug, assessment.pk]), {**form, "time_limit_minutes": 60})
    edited = only_entry(AuditAction.ASSESSMENT_EDITED)
    assert (edited.actor_user, edited.detail) == (hiring_manager, "time_limit_minutes")

    owner_client.post(reverse("teams:add_question", args=[slug, assessment.pk]), {"question": coding_question.pk})
    owner_client.post(reverse("teams:publish", args=[slug, assessment.pk]))
    assert only_entry(AuditAction.ASSESSMENT_PUBLISHED).actor_user == hiring_manager


def test_a_refused_action_leaves_no_entry(hiring_manager, draft_assessment):
    draft_assessment.items.all().delete()
    with pytest.raises(services.TeamsError):
        services.publish_assessment(draft_assessment, hiring_manager)
    assert not AuditEntry.objects.exists()


def test_candidates_invited_and_revoked_name_the_page_user_or_the_token(
    owner_client, hiring_manager, organisation, assessment, owner_token
):
    owner_client.post(
        reverse("teams:invite_candidates", args=[organisation.slug, assessment.pk]), {"emails": "ada@example.com"}
    )
    by_page = only_entry(AuditAction.CANDIDATE_INVITED)
    assert (by_page.actor_user, by_page.actor_token, by_page.target_label) == (hiring_manager, None, "ada@example.com")

    row, token = owner_token
    invited = owner_client.post(
        f"/api/v1/team/assessments/{assessment.pk}/invitations/",
        {"email": "bob@example.com"},
        content_type="application/json",
        **bearer(token),
    )
    assert invited.status_code == 201
    by_token = AuditEntry.objects.get(action=AuditAction.CANDIDATE_INVITED, target_label="bob@example.com")
    assert (by_token.actor_token, by_token.actor_user) == (row, hiring_manager)
    assert by_token.actor_label == f"API token ATS ({row.prefix}…)"

    revoked = owner_client.delete(f"/api/v1/team/invitations/{invited.json()['id']}/", **bearer(token))
    assert revoked.status_code == 204
    entry = only_entry(AuditAction.CANDIDATE_REVOKED)
    assert (entry.actor_token, entry.target_label) == (row, "bob@example.com")


def test_reading_a_candidates_report_is_recorded_on_the_page_and_through_the_api(
    client, reviewer, organisation, session, owner_token
):
    client.force_login(reviewer)
    assert client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).status_code == 200
    on_page = only_entry(AuditAction.REPORT_VIEWED)
    assert (on_page.actor_user, on_page.target_id) == (reviewer, session.pk)

    row, token = owner_token
    client.logout()
    assert client.get(f"/api/v1/team/sittings/{session.pk}/", **bearer(token)).status_code == 200
    through_api = AuditEntry.objects.filter(action=AuditAction.REPORT_VIEWED, actor_token=row)
    assert [entry.target_id for entry in through_api] == [session.pk]


def test_grading_again_is_recorded_with_the_member_who_asked(client, reviewer, organisation, session, items):
    submission = services.submit_code(session, items[2], "def transform(x):\n    return x\n")
    lifecycle.finish(submission, ACCEPTED)
    services.finish_session(session, "submitted")
    client.force_login(reviewer)
    client.post(reverse("teams:grade_again", args=[organisation.slug, session.pk, submission.pk]))
    entry = only_entry(AuditAction.GRADED_AGAIN)
    assert (entry.actor_user, entry.target_id) == (reviewer, submission.pk)
    assert entry.target_label == f"{session.invitation.email}'s question 3"


def test_tokens_and_webhooks_are_recorded(owner_client, hiring_manager, organisation, settings):
    slug = organisation.slug
    owner_client.post(reverse("teams:create_api_token", args=[slug]), {"name": "ATS sync", "role": "reviewer"})
    token = OrganisationToken.objects.get()
    created = only_entry(AuditAction.TOKEN_CREATED)
    assert (created.actor_user, created.target_id, created.detail) == (hiring_manager, token.pk, "role reviewer")
    owner_client.post(reverse("teams:revoke_api_token", args=[slug, token.pk]))
    owner_client.post(reverse("teams:revoke_api_token", args=[slug, token.pk]))  # already revoked: nothing to record
    assert only_entry(AuditAction.TOKEN_REVOKED).actor_user == hiring_manager

    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = True
    owner_client.post(reverse("teams:webhooks", args=[slug]), {"url": "http://127.0.0.1:9/hooks"})
    endpoint = organisation.webhook_endpoints.get()
    assert only_entry(AuditAction.WEBHOOK_ADDED).target_label == "http://127.0.0.1:9/hooks"
    owner_client.post(reverse("teams:remove_webhook", args=[slug, endpoint.pk]))
    removed = only_entry(AuditAction.WEBHOOK_REMOVED)
    assert (removed.actor_user, removed.target_label) == (hiring_manager, "http://127.0.0.1:9/hooks")


def test_members_invited_joining_and_removed_are_recorded(owner_client, hiring_manager, organisation, make_user):
    tokens = []
    invitation = services.invite_member(
        organisation, "colleague@example.com", Role.REVIEWER, hiring_manager, tokens.append
    )
    invited = only_entry(AuditAction.MEMBER_INVITED)
    assert (invited.actor_user, invited.target_label, invited.detail) == (
        hiring_manager,
        "colleague@example.com",
        "as reviewer",
    )
    colleague = make_user("colleague")
    membership = services.accept_member_invitation(invitation, colleague)
    joined = only_entry(AuditAction.MEMBER_JOINED)
    assert (joined.actor_user, joined.target_label) == (colleague, "colleague")

    owner_client.post(reverse("teams:remove_member", args=[organisation.slug, membership.pk]))
    removed = only_entry(AuditAction.MEMBER_REMOVED)
    assert (removed.actor_user, removed.target_label, removed.detail) == (hiring_manager, "colleague", "was reviewer")


def test_sso_settings_changed_through_the_page_are_recorded(owner_client, hiring_manager, organisation):
    form = {
        "issuer": "https://127.0.0.1:9/realms/acme",
        "client_id": "hotpath",
        "client_secret": "s3cret-value",
        "domains": "acme.test",
        "enabled": "on",
    }
    response = owner_client.post(reverse("sso_settings", args=[organisation.slug]), form)
    assert response.status_code == 302
    entry = only_entry(AuditAction.SSO_CHANGED)
    assert entry.actor_user == hiring_manager
    assert entry.detail == "enabled; domains: acme.test; join as member: False"
    assert "s3cret" not in str(AuditEntry.objects.values().get())


def test_the_log_is_append_only(hiring_manager, organisation):
    entry = audit.record(organisation, hiring_manager, AuditAction.MEMBER_INVITED, target_label="x@example.com")
    entry.detail = "changed"
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        AuditEntry.objects.filter(pk=entry.pk).update(detail="changed")
    with pytest.raises(TypeError):
        AuditEntry.objects.all().delete()
    with pytest.raises(ValueError, match="Unknown audit action"):
        audit.record(organisation, hiring_manager, "coffee.made")


def test_the_admin_reads_entries_and_removes_none(client, make_user, hiring_manager, organisation):
    entry = audit.record(organisation, hiring_manager, AuditAction.MEMBER_INVITED, target_label="x@example.com")
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert "x@example.com" in client.get(reverse("admin:teams_auditentry_changelist")).text
    assert client.get(reverse("admin:teams_auditentry_change", args=[entry.pk])).status_code == 200
    assert client.get(reverse("admin:teams_auditentry_delete", args=[entry.pk])).status_code == 403


def test_entries_go_with_their_organisation(hiring_manager, organisation):
    audit.record(organisation, hiring_manager, AuditAction.MEMBER_INVITED, target_label="x@example.com")
    organisation.delete()
    assert not AuditEntry.objects.exists()


def test_an_entry_outlives_its_actor(make_user, organisation):
    leaver = make_user("leaver")
    audit.record(organisation, leaver, AuditAction.MEMBER_JOINED, leaver)
    leaver.delete()
    entry = AuditEntry.objects.get()
    assert (entry.actor_user, entry.actor_label, entry.target_label) == (None, "leaver", "leaver")


def test_only_owners_read_the_log(client, reviewer, other_org_member, organisation):
    for user, status in ((reviewer, 403), (other_org_member, 404)):
        client.force_login(user)
        assert client.get(reverse("teams:audit_log", args=[organisation.slug])).status_code == status
        assert client.get(reverse("teams:audit_csv", args=[organisation.slug])).status_code == status


def test_the_page_shows_the_newest_first_filtered_and_a_page_at_a_time(
    owner_client, hiring_manager, reviewer, organisation, other_organisation
):
    url = reverse("teams:audit_log", args=[organisation.slug])
    for number in range(AUDIT_PAGE_SIZE):
        label = f"person{number}@example.com"
        audit.record(organisation, hiring_manager, AuditAction.MEMBER_INVITED, target_label=label)
    audit.record(organisation, reviewer, AuditAction.REPORT_VIEWED, target_label="by the reviewer")
    audit.record(other_organisation, reviewer, AuditAction.REPORT_VIEWED, target_label="another organisation's")

    first = owner_client.get(url)
    entries = list(first.context["entries"].object_list)
    assert len(entries) == AUDIT_PAGE_SIZE and entries[0].target_label == "by the reviewer"
    assert entries[1].target_label == f"person{AUDIT_PAGE_SIZE - 1}@example.com"
    assert "Page 1 of 2" in first.text and "another organisation's" not in first.text
    last = owner_client.get(url, {"page": 2})
    assert [entry.target_label for entry in last.context["entries"].object_list] == ["person0@example.com"]

    by_action = owner_client.get(url, {"action": AuditAction.REPORT_VIEWED})
    assert [entry.actor_user for entry in by_action.context["entries"].object_list] == [reviewer]
    by_person = owner_client.get(url, {"person": reviewer.pk})
    assert [entry.target_label for entry in by_person.context["entries"].object_list] == ["by the reviewer"]
    everyone = [(hiring_manager.pk, hiring_manager.username), (reviewer.pk, reviewer.username)]
    assert by_person.context["people"] == everyone

    refused = owner_client.get(url, {"action": "coffee.made"}, follow=True)
    assert [str(message) for message in refused.context["messages"]] == [
        "Unknown action 'coffee.made': choose one from the list."
    ]


def test_the_organisation_page_links_owners_to_the_log(client, hiring_manager, reviewer, organisation):
    link = reverse("teams:audit_log", args=[organisation.slug])
    client.force_login(hiring_manager)
    assert link in client.get(organisation.get_absolute_url()).text
    client.force_login(reviewer)
    assert link not in client.get(organisation.get_absolute_url()).text


def test_the_csv_export_follows_the_filters_and_defuses_formulas(owner_client, hiring_manager, reviewer, organisation):
    audit.record(organisation, hiring_manager, AuditAction.MEMBER_INVITED, target_label="=HYPERLINK(1)")
    audit.record(organisation, reviewer, AuditAction.REPORT_VIEWED, target_label="a report")
    url = reverse("teams:audit_csv", args=[organisation.slug])
    response = owner_client.get(url, {"person": hiring_manager.pk})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="audit-{organisation.slug}.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == audit.CSV_HEADER
    assert [row[1:4] + row[6:7] for row in rows[1:]] == [
        [AuditAction.MEMBER_INVITED, hiring_manager.username, "user", "'=HYPERLINK(1)"]
    ]
    refused = owner_client.get(url, {"person": "someone"})
    assert (refused.status_code, refused.text) == (400, "Unknown person 'someone': choose one from the list.")
