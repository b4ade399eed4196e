"""Issue 12, finding 8: only the practice submit view was rate-limited. Sign-in,
sign-up, password reset and the verification mail now are (per client address,
and per username or e-mail asked for); the assessment's code submission is in
tests/teams/test_candidate_flow.py."""
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from interview_platform.accounts.ratelimits import forwarded_client_ip

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-passphrase-for-tests"


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Rate limits live in the cache: give each test a fresh in-memory one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "accounts-rates"}}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def sign_in(client, username, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_sign_in_attempts_are_limited_per_username(client, candidate, settings):
    settings.LOGIN_RATE = "3/m"
    guesses = [sign_in(client, "candidate", f"guess-{n}", address=f"10.0.0.{n}").status_code for n in range(3)]
    assert guesses == [200, 200, 200]
    blocked = sign_in(client, "candidate", "correct-horse-battery", address="10.0.0.99")
    assert blocked.status_code == 429
    assert "Too many attempts" in blocked.content.decode()
    assert "_auth_user_id" not in client.session  # even the right password waits


def test_sign_in_attempts_are_limited_per_address(client, make_user, settings):
    settings.LOGIN_RATE = "2/m"
    statuses = [sign_in(client, f"someone-{n}", "wrong").status_code for n in range(3)]
    assert statuses == [200, 200, 429]


def test_sign_up_is_limited_per_address(client, settings):
    settings.SIGNUP_RATE = "2/h"
    statuses = []
    for n in range(3):
        client.logout()  # sign-up signs the new account in
        fields = {"username": f"bulk-{n}", "email": f"bulk-{n}@example.com", "password1": PASSWORD, "password2": PASSWORD}
        statuses.append(client.post(reverse("accounts:signup"), fields).status_code)
    assert statuses == [302, 302, 429]
    assert get_user_model().objects.filter(username__startswith="bulk-").count() == 2


def test_password_reset_is_limited(client, candidate, settings, mailoutbox):
    settings.PASSWORD_RESET_RATE = "2/h"
    statuses = [client.post(reverse("password_reset"), {"email": candidate.email}).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
    assert len(mailoutbox) == 2


def test_verification_mail_is_limited_per_account(client, make_user, settings, mailoutbox):
    settings.VERIFICATION_MAIL_RATE = "1/h"
    client.force_login(make_user("impatient", verified=False))
    for _ in range(3):
        client.post(reverse("accounts:resend_verification"))
    assert len(mailoutbox) == 1


def test_behind_the_proxy_the_client_address_is_the_one_it_appended():
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7", REMOTE_ADDR="172.18.0.5")
    assert forwarded_client_ip(request) == "203.0.113.7"  # the first entry is the client's own claim
    assert forwarded_client_ip(RequestFactory().get("/", REMOTE_ADDR="172.18.0.5")) == "172.18.0.5"
