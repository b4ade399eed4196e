"""A candidate's path: the e-mailed link, the account it uses, answers saved as
they go, code graded as an assessment submission, and the end screen."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import verification
from leaderboards.models import LeaderboardEntry
from submissions.models import Purpose, Submission
from submissions.services import lifecycle
from submissions.states import Status, Verdict
from teams import reports, services
from teams.models import Answer, CandidateSession, Membership, Role

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/teams/invitation/[^/\s]+/(?:\?\S+)?)")
PASSWORD = "a-long-passphrase-for-tests"


def invite_by_page(client, hiring_manager, assessment, emails, mailoutbox, django_capture_on_commit_callbacks):
    client.force_login(hiring_manager)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("teams:invite_candidates", args=[assessment.organisation.slug, assessment.pk]), {"emails": emails}
        )
    client.logout()
    return {message.to[0]: LINK.search(message.body).group(1) for message in mailoutbox}


@pytest.fixture
def mailed_link(assessment, hiring_manager, mailoutbox, django_capture_on_commit_callbacks):
    """mailed_link(email) -> the link the invitation's mail carries, which only the invited
    mailbox reads (the `invite` fixture's token makes the team's copy of the link)."""

    def make(email):
        start_url = lambda token: "http://testserver" + reverse("teams:candidate_start", args=[token])  # noqa: E731
        with django_capture_on_commit_callbacks(execute=True):
            services.invite_candidate(assessment, email, hiring_manager, start_url)
        return LINK.search(mailoutbox[-1].body).group(1)

    return make


def sign_up(client, username, email):
    fields = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("accounts:signup"), fields)


def test_a_list_with_a_bad_address_sends_nothing_and_keeps_what_was_typed(
    client, hiring_manager, assessment, mailoutbox
):
    client.force_login(hiring_manager)
    typed = "ada@example.com\nnot-an-email\nbob@example.com"
    response = client.post(
        reverse("teams:invite_candidates", args=[assessment.organisation.slug, assessment.pk]), {"emails": typed}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Not valid e-mail addresses: not-an-email" in page and "Nothing was sent" in page
    assert ">\nada@example.com\nnot-an-email\nbob@example.com</textarea>" in page
    assert not assessment.invitations.exists() and not mailoutbox


def test_candidate_without_an_account_completes_the_assessment(
    client, hiring_manager, assessment, items, mailoutbox, django_capture_on_commit_callbacks, clock
):
    links = invite_by_page(
        client, hiring_manager, assessment, "New.Person@Example.com", mailoutbox, django_capture_on_commit_callbacks
    )
    link = links["new.person@example.com"]
    assert "60 minutes" in mailoutbox[0].body

    landing = client.get(link)
    assert landing.status_code == 200
    assert "<strong>all</strong>" in landing.content.decode()  # instructions rendered from Markdown

    started = client.post(link)
    session = CandidateSession.objects.get()
    assert started["Location"] == reverse("teams:take", args=[session.pk])
    account = session.candidate
    assert account.email == "new.person@example.com"
    assert not account.has_usable_password()

    page = client.get(reverse("teams:take_question", args=[session.pk, 1]))
    assert page.status_code == 200
    assert "Q1. Amortised cost" in page.content.decode()

    saved = client.post(
        reverse("teams:save_answer", args=[session.pk, 1]), {"text": "Geometric series"}, HTTP_ACCEPT="application/json"
    )
    assert saved.json()["saved"] is True
    done = client.post(reverse("teams:finish", args=[session.pk]), follow=True)
    assert "Submitted — the team will be in touch" in done.content.decode()
    assert Answer.objects.get(session=session).text == "Geometric series"


def test_existing_account_must_sign_in_first(client, candidate, invite, clock):
    invitation, token = invite(candidate.email.upper())
    link = reverse("teams:candidate_start", args=[token])
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    invitation.refresh_from_db()
    assert invitation.used_at is None  # not used up until they sign in

    client.force_login(candidate)
    client.post(link)
    assert CandidateSession.objects.get().candidate == candidate
    assert get_user_model().objects.filter(email__iexact=candidate.email).count() == 1


def test_signed_in_as_someone_else_is_refused(client, outsider, invite, clock):
    _, token = invite("someone@example.com")
    client.force_login(outsider)
    response = client.post(reverse("teams:candidate_start", args=[token]))
    assert "signed in as" in response.content.decode()
    assert not CandidateSession.objects.exists()


def test_numeric_answer_is_checked_with_units(session, items):
    numeric = items[1]
    answer, message = services.save_answer(session, numeric, numeric_input="4 GiB")
    assert answer.numeric_correct is True and message == ""
    answer, _ = services.save_answer(session, numeric, numeric_input="4 GB")
    assert answer.numeric_correct is False
    answer, message = services.save_answer(session, numeric, numeric_input="4 parsecs")
    assert answer.numeric_correct is None
    assert message == "Expected a value in bytes, got metres."


def test_autosave_without_javascript_redirects_back(candidate_client, session):
    response = candidate_client.post(
        reverse("teams:save_answer", args=[session.pk, 2]), {"numeric_input": "4294967296"}
    )
    assert response["Location"] == reverse("teams:take_question", args=[session.pk, 2])
    assert Answer.objects.get(session=session).numeric_correct is True


def test_code_is_graded_as_an_assessment_submission(candidate_client, candidate, session, items):
    coding = items[2]
    response = candidate_client.post(
        reverse("teams:submit_code", args=[session.pk, 3]), {"code": "def transform(v):\r\n    return v\r\n"}
    )
    assert response.status_code == 302
    submission = Submission.objects.get()
    assert submission.purpose == Purpose.ASSESSMENT
    assert submission.exercise == coding.exercise_version
    assert submission.user == candidate
    assert submission.code == "def transform(v):\n    return v\n"
    assert session.session_submissions.get().submission == submission

    status = candidate_client.get(reverse("teams:submission_status", args=[session.pk, 3])).json()
    assert status["submissions"][0]["status"] == Status.QUEUED


def test_assessment_submissions_never_reach_leaderboards(candidate, session, items):
    submission = services.submit_code(
        session, items[2], "import numpy as np\ndef transform(v):\n    return np.square(v)\n"
    )
    report = {
        "verdict": Verdict.ACCEPTED,
        "speedup": 12.0,
        "speedup_ci": [11.0, 13.0],
        "message": "Accepted",
        "peak_memory_bytes": 1000,
        "reference_peak_memory_bytes": 4000,
        "hardware": "cpu",
    }
    graded = lifecycle.finish(submission, report)  # sends submission_graded, as a worker would
    assert graded.verdict == Verdict.ACCEPTED and graded.speedup == 12.0
    assert not LeaderboardEntry.objects.filter(user=candidate).exists()


def test_rejected_code_shows_the_graders_message(candidate_client, session, settings):
    settings.SUBMISSION_MAX_BYTES = 1024
    response = candidate_client.post(
        reverse("teams:submit_code", args=[session.pk, 3]), {"code": "x = 1\n" * 400}, follow=True
    )
    assert "the limit is 1,024 bytes" in response.content.decode()
    assert not Submission.objects.exists()


def test_a_coding_items_text_is_its_code_as_typed_never_graded(session, items):
    answer, _ = services.save_answer(session, items[2], text="def transform(v):\n    return v\n")
    assert answer.text.startswith("def transform")
    coding = next(result for result in reports.candidate_report(session).results if result.item == items[2])
    assert coding.status_label == "No submission" and coding.score == 0.0


def test_candidate_cannot_reach_questions_beyond_the_assessment(candidate_client, session):
    assert candidate_client.get(reverse("teams:take_question", args=[session.pk, 4])).status_code == 404


# -- issue 12, finding 8: accounts and rate limits ---------------------------------------


def test_an_address_registered_first_by_someone_else_blocks_nobody(client, make_user, mailed_link, clock):
    """Someone signs up with the candidate's address before the invitation goes out (they
    cannot open its verification mail). The candidate's link still starts the assessment,
    on an account of the candidate's own."""
    squatter = make_user("squatter", verified=False, email="target@example.com")
    started = client.post(mailed_link("target@example.com"))
    session = CandidateSession.objects.get()
    assert started["Location"] == reverse("teams:take", args=[session.pk])
    assert session.candidate != squatter and session.candidate.email == "target@example.com"
    assert verification.is_verified(session.candidate) and not verification.is_verified(squatter)


def test_an_existing_account_is_asked_to_sign_in_and_told_why(client, candidate, invite, clock):
    _, token = invite(candidate.email)
    link = reverse("teams:candidate_start", args=[token])
    login_page = client.post(link, follow=True)
    assert f"An account for {candidate.email} already exists: sign in to it" in login_page.content.decode()
    client.force_login(candidate)
    client.post(link)
    assert CandidateSession.objects.get().candidate == candidate


def test_the_invitation_link_verifies_the_account_that_accepts_it(client, make_user, mailed_link, clock):
    unverified = make_user("late-verifier", verified=False)
    link = mailed_link(unverified.email)
    client.force_login(unverified)
    client.post(link)
    assert CandidateSession.objects.get().candidate == unverified
    assert verification.is_verified(unverified)


def test_assessment_code_submission_is_rate_limited(candidate_client, session, settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "teams-rate"}
    }
    settings.SUBMISSION_RATE = "2/m"
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 100
    url = reverse("teams:submit_code", args=[session.pk, 3])
    pages = [
        candidate_client.post(url, {"code": f"def transform(v):\n    return v  # {n}\n"}, follow=True) for n in range(3)
    ]
    assert Submission.objects.count() == 2
    assert "You are submitting too quickly" in pages[2].content.decode()


# -- issue 29, finding 1: an invitation verified addresses nobody had shown they read -----


@pytest.mark.parametrize("signed_in", [True, False], ids=["as-the-squatter", "signed-out"])
def test_the_teams_copy_of_a_link_verifies_no_address(client, make_user, organisation, invite, signed_in, clock):
    """An unverified account claiming someone's address made a team, invited that address and
    opened the link the assessment page shows the team: the address was verified on an
    account of the squatter's, and its owner could no longer sign up. Signed out, one person
    could mint as many verified accounts as they invited addresses."""
    squatter = make_user("squatter", verified=False, email="victim@example.com")
    Membership.objects.create(user=squatter, organisation=organisation, role=Role.OWNER)
    _, token = invite("victim@example.com")
    if signed_in:
        client.force_login(squatter)
    started = client.post(reverse("teams:candidate_start", args=[token]))
    session = CandidateSession.objects.get()
    assert started["Location"] == reverse("teams:take", args=[session.pk])  # the sitting itself still starts
    assert not verification.is_verified(session.candidate)
    assert not verification.verified_accounts("victim@example.com").exists()
    client.logout()
    assert sign_up(client, "victim", "victim@example.com").status_code == 302


def test_a_member_of_the_inviting_team_is_never_verified_by_its_invitation(
    client, make_user, organisation, mailed_link, clock
):
    squatter = make_user("squatter", verified=False, email="victim@example.com")
    Membership.objects.create(user=squatter, organisation=organisation, role=Role.REVIEWER)
    link = mailed_link("victim@example.com")
    client.force_login(squatter)
    client.post(link)
    assert CandidateSession.objects.get().candidate == squatter
    assert not verification.is_verified(squatter)


def test_an_invitation_never_hands_its_address_to_another_account(client, make_user, outsider, mailed_link, clock):
    squatter = make_user("squatter", verified=False, email="victim@example.com")
    link = mailed_link("victim@example.com")
    client.force_login(outsider)
    refused = client.post(link)
    assert "signed in as" in refused.content.decode() and not CandidateSession.objects.exists()
    assert verification.is_verified(outsider) and not verification.is_verified(squatter)
    assert outsider.email == "outsider@example.com"
    with pytest.raises(verification.VerificationError):
        verification.verify_mailed_address(outsider, "victim@example.com")
    assert not verification.verified_accounts("victim@example.com").exists()


def test_the_owner_of_an_address_can_reset_the_account_their_invitation_made(
    client, mailed_link, mailoutbox, settings, clock
):
    """A candidate's account has no password and holds the verified address, so signing up
    again is refused: a password reset must reach it (Django's own skips accounts without
    a usable password)."""
    settings.PASSWORD_RESET_RATE = "100/m"
    client.post(mailed_link("ada@example.com"))
    candidate = CandidateSession.objects.get().candidate
    assert verification.is_verified(candidate) and not candidate.has_usable_password()
    client.logout()
    assert "already exists" in sign_up(client, "ada", "ada@example.com").content.decode()
    sent = len(mailoutbox)
    client.post(reverse("password_reset"), {"email": "ada@example.com"})
    assert len(mailoutbox) == sent + 1 and mailoutbox[-1].to == ["ada@example.com"]
