"""Issue 12, finding 8: sign-up verified no e-mail address, so one person could
hold many accounts (each with its own queue cap and place in the fair order).
Now sign-up mails a signed link, and an account submits graded code only once
its owner opened it."""

import importlib
import io
import re
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.management import call_command
from django.urls import reverse

from accounts import verification
from accounts.models import Profile
from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Submission

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/accounts/verify/[^/\s]+/)")
CODE = "def transform(x):\n    return x\n"
PASSWORD = "a-long-passphrase-for-tests"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def exercise(db):
    question = Question.objects.create(
        slug="verify-exercise",
        title="Verify exercise",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Return x.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"target": "cpu", "entry_point": "transform", "sizes": [10]},
        reference_code=CODE,
        starter_code=CODE,
        inputs_code="def make_inputs(size, seed):\n    return (size,)\n",
        solution_code=CODE,
        content_hash="verify",
    )


def sign_up(client, username, email):
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_code_waits_until_the_mailed_link_is_opened(client, exercise, mailoutbox):
    assert sign_up(client, "newcomer", "Newcomer@Example.com").status_code == 302
    user = get_user_model().objects.get(username="newcomer")
    assert not verification.is_verified(user)
    [message] = mailoutbox
    assert message.to == ["newcomer@example.com"]

    refused = client.post(reverse("submissions:submit", args=[exercise.question.slug]), {"code": CODE})
    assert refused.status_code == 403
    assert "Verify your e-mail address before submitting code" in refused.content.decode()
    assert not Submission.objects.exists()

    opened = client.get(LINK.search(message.body).group(1), follow=True)
    assert "newcomer@example.com is verified." in opened.content.decode()
    assert verification.is_verified(user)
    assert client.post(reverse("submissions:submit", args=[exercise.question.slug]), {"code": CODE}).status_code == 302
    assert Submission.objects.filter(user=user).count() == 1


def test_the_coding_page_and_the_mail_say_the_rule_before_any_code_is_written(client, exercise, mailoutbox):
    """What is enforced is told up front: practice code waits for the link, invitations do not."""
    sign_up(client, "early", "early@example.com")
    [message] = mailoutbox
    assert "not run or submit code" in message.body and "accept an invitation" not in message.body
    page = client.get(reverse("questions:detail", args=[exercise.question.slug])).content.decode()
    assert 'id="unverified-notice"' in page and "not verified yet" in page and "early@example.com" in page
    client.get(LINK.search(message.body).group(1))
    page = client.get(reverse("questions:detail", args=[exercise.question.slug])).content.decode()
    assert 'id="unverified-notice"' not in page


def test_a_tampered_or_expired_link_verifies_nothing(client, make_user):
    user = make_user("late", verified=False)
    token = verification.make_token(user)
    assert client.get(reverse("accounts:verify_email", args=[token[:-2] + "xx"])).status_code == 400
    with mock.patch("django.core.signing.time.time", return_value=signing.time.time() - 4 * 24 * 3600):
        old = verification.make_token(user)
    expired = client.get(reverse("accounts:verify_email", args=[old]))
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    assert not verification.is_verified(user)


def test_a_link_to_a_former_address_does_not_verify_the_new_one(client, make_user):
    user = make_user("mover", verified=False)
    token = verification.make_token(user)
    user.email = "elsewhere@example.com"
    user.save()
    assert client.get(reverse("accounts:verify_email", args=[token])).status_code == 400
    assert not verification.is_verified(user)


def test_changing_the_address_needs_a_new_verification(make_user):
    user = make_user("changer")
    assert verification.is_verified(user)
    user.email = "new-address@example.com"
    user.save()
    assert not verification.is_verified(user)


def test_an_address_verified_elsewhere_is_not_taken_over(client, make_user):
    make_user("owner")  # owner@example.com, verified
    squatter = make_user("squatter", verified=False, email="owner@example.com")
    response = client.get(reverse("accounts:verify_email", args=[verification.make_token(squatter)]))
    assert response.status_code == 400 and "already verified on another account" in response.content.decode()
    assert not verification.is_verified(squatter)


def test_sign_up_refuses_a_verified_address_only(client, make_user):
    make_user("taken")
    refused = sign_up(client, "copycat", "taken@example.com")
    assert refused.status_code == 200 and "already exists" in refused.content.decode()
    make_user("unproven", verified=False)
    assert sign_up(client, "real-owner", "unproven@example.com").status_code == 302


def test_profile_sends_a_new_link(client, make_user, mailoutbox, settings):
    settings.VERIFICATION_MAIL_RATE = "100/m"
    user = make_user("forgetful", verified=False)
    client.force_login(user)
    assert "Send a new link" in client.get(reverse("accounts:profile")).content.decode()
    client.post(reverse("accounts:resend_verification"))
    assert len(mailoutbox) == 1 and LINK.search(mailoutbox[0].body)


def test_accounts_from_before_verification_count_as_verified():
    """The data migration: existing accounts keep working (their addresses already got
    invitations and password resets, and a candidate may be mid-sitting)."""
    User = get_user_model()
    with_profile = User.objects.create_user("old-one", email="Old.One@example.com")
    Profile.objects.create(user=with_profile)
    without_profile = User.objects.create_user("old-two", email="old-two@example.com")
    no_email = User.objects.create_user("old-three")
    migration = importlib.import_module("accounts.migrations.0002_profile_verified_email")
    migration.verify_existing_accounts(apps, None)
    assert verification.is_verified(with_profile) and verification.is_verified(without_profile)
    assert not verification.is_verified(no_email)


def test_the_demo_admin_can_submit_code_at_once():
    call_command("ensure_demo_admin", stdout=io.StringIO())
    assert verification.is_verified(get_user_model().objects.get(username="admin"))


def test_joining_a_team_by_its_mailed_link_verifies_the_account(make_user):
    from teams import services as teams

    owner = make_user("team-owner")
    organisation = teams.create_organisation(owner, "Acme")
    invited = make_user("joiner", verified=False)
    tokens = []
    invitation = teams.invite_member(
        organisation, invited.email, "reviewer", owner, lambda token: tokens.append(token) or token
    )
    teams.accept_member_invitation(invitation, invited)
    assert verification.is_verified(invited)


@pytest.mark.parametrize("email_url, in_terminal", [("consolemail://", True), ("smtp://mail.example.com:25", False)])
def test_without_a_mail_server_the_pages_say_the_link_is_in_the_terminal(
    client, exercise, settings, email_url, in_terminal
):
    """Under `make run` mail is printed by the worker: a newcomer told to open "the link we
    sent" looked for it in an inbox. Every page that sends them to the link says where it is."""
    from interview_platform.config import env_email_url

    with mock.patch.dict("os.environ", {"EMAIL_URL": email_url}):
        settings.EMAIL_DELIVERY_BACKEND = env_email_url("EMAIL_URL", "consolemail://")["EMAIL_BACKEND"]
    pages = {
        "signed up": sign_up(client, "newcomer", "newcomer@example.com"),
        "refused": client.post(reverse("submissions:submit", args=[exercise.question.slug]), {"code": CODE}),
        "profile": client.get(reverse("accounts:profile")),
        "new link": client.post(reverse("accounts:resend_verification")),
    }
    pages["signed up"] = client.get(pages["signed up"].url)
    pages["new link"] = client.get(pages["new link"].url)
    for name, response in pages.items():
        text = response.content.decode()
        assert ("printed in the terminal that runs it" in text) is in_terminal, name
    assert "open the link we sent to newcomer@example.com" in pages["refused"].content.decode()
