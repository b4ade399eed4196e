"""The clock: invitations that expire or are reused, the server-enforced deadline,
extra time, and finalisation when the candidate never comes back."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from interview_platform.celery import app as celery_app
from teams import services, tasks
from teams.models import CandidateSession, FinishReason

from .conftest import START

pytestmark = pytest.mark.django_db


def test_invitation_expires_when_the_window_closes(invite, clock, candidate, assessment):
    invitation, _ = invite(candidate.email)
    assert invitation.expires_at == assessment.closes_at
    clock.now = assessment.closes_at + timedelta(seconds=1)
    with pytest.raises(services.TeamsError, match="expired"):
        services.start_session(invitation, candidate)
    assert not CandidateSession.objects.exists()


def test_expired_link_page_says_so(client, invite, clock, assessment):
    _, token = invite("late@example.com")
    clock.now = assessment.closes_at + timedelta(minutes=5)
    response = client.post(reverse("teams:candidate_start", args=[token]))
    assert response.status_code == 410
    assert "expired" in response.content.decode()
    assert not CandidateSession.objects.exists()


def test_reused_link_is_refused_for_someone_else(client, invite, clock):
    _, token = invite("first@example.com")
    first = client.post(reverse("teams:candidate_start", args=[token]))
    assert first.status_code == 302
    assert CandidateSession.objects.count() == 1

    client.logout()  # another browser, e.g. the link forwarded to someone else
    second = client.post(reverse("teams:candidate_start", args=[token]))
    assert second.status_code == 410
    assert "already been used" in second.content.decode()
    assert CandidateSession.objects.count() == 1


def test_reopening_own_used_link_resumes_the_sitting(client, invite, clock):
    _, token = invite("resume@example.com")
    first = client.post(reverse("teams:candidate_start", args=[token]))
    again = client.get(reverse("teams:candidate_start", args=[token]))
    assert again.status_code == 302
    assert again["Location"] == first["Location"]


def test_unknown_token_is_404(client, db):
    assert client.get(reverse("teams:candidate_start", args=["not-a-token"])).status_code == 404


def test_link_before_the_window_opens_is_refused(invite, clock, candidate, assessment):
    invitation, _ = invite(candidate.email)
    clock.now = assessment.opens_at - timedelta(minutes=1)
    with pytest.raises(services.TeamsError, match="opens at"):
        services.start_session(invitation, candidate)


def test_get_does_not_use_the_link_up(client, invite, clock):
    """Mail scanners follow links with GET: only pressing Start uses the link."""
    invitation, token = invite("scanned@example.com")
    assert client.get(reverse("teams:candidate_start", args=[token])).status_code == 200
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_deadline_is_enforced_by_the_server(session, items, clock):
    concept = items[0]
    services.save_answer(session, concept, text="Before the deadline")
    clock.now = session.deadline
    with pytest.raises(services.SessionClosed, match="Time is up"):
        services.save_answer(session, concept, text="Too late")
    assert session.answers.get(item=concept).text == "Before the deadline"
    session.refresh_from_db()
    assert session.finish_reason == FinishReason.EXPIRED
    assert session.finished_at == session.deadline


def test_late_autosave_gets_a_clear_json_refusal(candidate_client, session, clock):
    clock.advance(minutes=61)
    response = candidate_client.post(
        reverse("teams:save_answer", args=[session.pk, 1]), {"text": "late"}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 409
    assert "Time is up" in response.json()["error"]


def test_late_code_submission_is_refused(candidate_client, session, items, clock):
    clock.advance(hours=2)
    response = candidate_client.post(
        reverse("teams:submit_code", args=[session.pk, 3]), {"code": "def transform(v): return v"}, follow=True
    )
    assert "Time is up" in response.content.decode()
    assert not session.session_submissions.exists()


def test_question_page_shows_the_server_countdown(candidate_client, session, clock):
    clock.advance(minutes=15)
    response = candidate_client.get(reverse("teams:take_question", args=[session.pk, 1]))
    assert response.status_code == 200
    assert response.context["seconds_left"] == 45 * 60
    assert 'data-seconds-left="2700"' in response.content.decode()


def test_extra_time_moves_the_deadline(session, clock):
    services.grant_extra_time(session.invitation, 15)
    session.refresh_from_db()
    assert session.deadline == START + timedelta(minutes=75)
    clock.advance(minutes=70)
    services.ensure_accepting_answers(session)  # still open thanks to the extra time


def test_extra_time_reopens_a_sitting_that_ran_out(session, items, clock):
    clock.advance(minutes=61)
    services.finalise_if_expired(session)
    assert session.finish_reason == FinishReason.EXPIRED
    services.grant_extra_time(session.invitation, 10)
    session.refresh_from_db()
    assert not session.is_finished
    services.save_answer(session, items[0], text="Finished my thought")


def test_extra_time_does_not_reopen_a_submitted_sitting(session, clock):
    services.finish_session(session, FinishReason.SUBMITTED)
    services.grant_extra_time(session.invitation, 30)
    session.refresh_from_db()
    assert session.finish_reason == FinishReason.SUBMITTED


@pytest.mark.parametrize("minutes", [0, -5, services.MAX_EXTRA_MINUTES + 1])
def test_extra_time_must_be_sensible(session, minutes):
    with pytest.raises(services.TeamsError):
        services.grant_extra_time(session.invitation, minutes)


def test_owner_grants_extra_time_through_the_page(client, hiring_manager, session, organisation):
    client.force_login(hiring_manager)
    client.post(reverse("teams:extra_time", args=[organisation.slug, session.invitation.pk]), {"minutes": 20})
    session.invitation.refresh_from_db()
    assert session.invitation.extra_minutes == 20


def test_periodic_task_finalises_without_the_candidate(session, clock, invite, make_user):
    other = make_user("punctual")
    other_invitation, _ = invite(other.email)
    clock.advance(minutes=30)
    still_running = services.start_session(other_invitation, other)
    clock.advance(minutes=31)  # the first sitting is past its deadline, the second is not

    assert tasks.finalise_expired_sessions() == 1
    session.refresh_from_db()
    still_running.refresh_from_db()
    assert session.finish_reason == FinishReason.EXPIRED
    assert session.finished_at == session.deadline
    assert not still_running.is_finished
    assert tasks.finalise_expired_sessions() == 0  # idempotent


def test_management_command_finalises(session, clock, capsys):
    clock.advance(hours=3)
    call_command("finalise_expired_sessions")
    assert "Finalised 1" in capsys.readouterr().out
    session.refresh_from_db()
    assert session.is_finished


def test_task_is_on_the_beat_schedule():
    schedule = {entry["task"] for entry in celery_app.conf.beat_schedule.values()}
    assert "teams.finalise_expired_sessions" in schedule


def test_finalised_on_read_by_the_report(client, hiring_manager, session, organisation, clock):
    clock.advance(hours=1, seconds=1)
    client.force_login(hiring_manager)
    response = client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk]))
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.finish_reason == FinishReason.EXPIRED


def test_time_used_stops_at_the_deadline(session, clock):
    clock.advance(hours=5)
    services.finalise_if_expired(session)
    assert session.time_used() == timedelta(minutes=60)


def test_finish_then_done_page(candidate_client, session, clock):
    clock.advance(minutes=20)
    response = candidate_client.post(reverse("teams:finish", args=[session.pk]), follow=True)
    assert "Submitted — the team will be in touch" in response.content.decode()
    session.refresh_from_db()
    assert session.finish_reason == FinishReason.SUBMITTED
    assert session.time_used() == timedelta(minutes=20)
    # Answers cannot change after submitting.
    late = candidate_client.post(
        reverse("teams:save_answer", args=[session.pk, 1]), {"text": "x"}, HTTP_ACCEPT="application/json"
    )
    assert late.status_code == 409
