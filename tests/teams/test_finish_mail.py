"""The team hears by e-mail when a candidate's sitting closes (teams.services.sittings.tell_team_of_finish)."""

from teams import services
from teams.models import FinishReason, Membership, Role


def test_finishing_mails_the_author_and_owners_once(
    session, hiring_manager, reviewer, make_user, organisation, mailoutbox, clock
):
    co_owner = make_user("co-owner")
    Membership.objects.create(user=co_owner, organisation=organisation, role=Role.OWNER)
    mailoutbox.clear()
    services.finish_session(session, FinishReason.SUBMITTED)
    services.finish_session(session, FinishReason.EXPIRED)  # already closed: nothing more

    (mail,) = mailoutbox
    assert sorted(mail.to) == sorted([hiring_manager.email, co_owner.email])  # reviewers are not mailed
    assert session.invitation.email in mail.subject and session.assessment.title in mail.subject
    assert f"/teams/org/{organisation.slug}/candidates/{session.pk}/" in mail.body
    assert "submitted by the candidate" in mail.body


def test_a_sitting_that_runs_out_of_time_is_reported_too(session, clock, mailoutbox):
    mailoutbox.clear()
    clock.advance(hours=2)
    assert services.finalise_if_expired(session)
    assert len(mailoutbox) == 1 and "time ran out" in mailoutbox[0].body
