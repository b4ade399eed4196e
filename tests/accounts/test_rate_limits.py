"""Issue 12, finding 8: only the practice submit view was rate-limited. Sign-in,
sign-up, password reset and the verification mail now are (per client address,
and per username or e-mail asked for); the assessment's code submission is in
tests/teams/test_candidate_flow.py."""

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from accounts.ratelimits import canonical_login, forwarded_client_ip

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-passphrase-for-tests"


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Rate limits live in the cache: give each test a fresh in-memory one."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "accounts-rates"}
    }
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
        fields = {
            "username": f"bulk-{n}",
            "email": f"bulk-{n}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
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


# -- issue 29, finding 2: the limits counted the value as typed --------------------------

RESET = "password_reset"


@pytest.mark.parametrize("typed", [" candidate", "candidate ", "\tcandidate", "ｃａｎｄｉｄａｔｅ"])
def test_a_username_typed_another_way_shares_its_limit(client, candidate, settings, typed):
    """Django strips the username and NFKC-normalises it before looking the account up, so
    each of these signs in as `candidate`: each was a fresh allowance of guesses."""
    settings.LOGIN_RATE = "3/m"
    for n in range(3):
        sign_in(client, "candidate", f"guess-{n}", address=f"10.0.0.{n}")
    blocked = sign_in(client, typed, "correct-horse-battery", address="10.0.0.99")
    assert blocked.status_code == 429 and "_auth_user_id" not in client.session


def test_sign_in_matches_usernames_case_sensitively_so_the_limit_does_too(candidate):
    """Why the username's key keeps its case: the account is found by an exact match, so
    `CANDIDATE` guesses no password of `candidate`'s (a backend that ignores case must fold it)."""
    assert authenticate(username="CANDIDATE", password="correct-horse-battery") is None
    assert (
        authenticate(username="ｃａｎｄｉｄａｔｅ ", password="correct-horse-battery") is None
    )  # the form normalises, not the backend
    assert canonical_login(" ｃａｎｄｉｄａｔｅ\t", ignore_case=False) == "candidate"
    assert canonical_login("Carol", ignore_case=False) == "Carol"


@pytest.mark.parametrize(
    "typed",
    [" candidate@example.com", "candidate@example.com\t", "Candidate@EXAMPLE.com", "ｃａｎｄｉｄａｔｅ@example.com"],
)
def test_an_address_typed_another_way_shares_its_reset_limit(client, candidate, settings, mailoutbox, typed):
    """A reset matches the address ignoring case (and compares it NFKC-casefolded): each of
    these asked again for `candidate`'s reset, past the limit."""
    settings.PASSWORD_RESET_RATE = "2/h"
    for n in range(2):
        client.post(reverse(RESET), {"email": candidate.email}, REMOTE_ADDR=f"10.0.0.{n}")
    assert client.post(reverse(RESET), {"email": typed}, REMOTE_ADDR="10.0.0.99").status_code == 429
    assert len(mailoutbox) == 2
