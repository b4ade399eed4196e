"""Shared fixtures: a candidate, an outsider and staff. Team fixtures (a hiring-team
member) live in tests/teams/conftest.py beside the tests that use them."""
import time
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from tests.live_server_gate import RequestGate
from tests.sandbox_backends import BACKENDS, require_backend


@pytest.fixture(scope="session", params=BACKENDS)
def sandbox_backend(request):
    """'bwrap' or 'docker': a test that takes it runs on both (tests/sandbox_backends.py)."""
    require_backend(request.param)
    return request.param


@pytest.fixture(autouse=True)
def live_server_settles(request):
    """A test that uses the live server ends only once the server has finished every
    request its browser sent, and turns later ones away, before the database is
    emptied (tests/live_server_gate.py says why). Set up after transactional_db, so
    torn down before its flush, and before the test's own page fixtures, so after
    they close their pages."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    gate = RequestGate.on(request.getfixturevalue("live_server"))
    gate.open()
    yield
    gate.close_and_wait(timeout_s=30)


@pytest.fixture(autouse=True)
def roomy_rate_limits(settings):
    """The suite signs in, signs up and submits far more often (from 127.0.0.1, as reused user
    ids) than a person would, and the file cache keeps counts between runs; the rate-limit
    tests set the rates they test."""
    settings.LOGIN_RATE = settings.SIGNUP_RATE = settings.PASSWORD_RESET_RATE = settings.SUBMISSION_RATE = "1000/m"


@pytest.fixture(autouse=True)
def one_rate_limit_window(monkeypatch):
    """django-ratelimit counts in fixed windows (a minute, from an offset per key): three posts
    that straddle a window's end start the count over, and a test expecting [302, 302, 429] read
    [302, 302, 302] (stop 24's CI). The tests assert counts, not where a window falls, so
    django-ratelimit reads the clock as it stood when the test began."""
    import django_ratelimit.core

    began = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: began))


@pytest.fixture(autouse=True)
def fresh_bank_version():
    """Each test's database starts over without a save signal (a rolled-back transaction): the
    bank version a process remembers for a second or two (questions.bank_version) must not
    carry over from the test before."""
    from questions.bank_version import forget_bank_version

    forget_bank_version()
    yield
    forget_bank_version()


@pytest.fixture
def make_user(db):
    """make_user(username, verified=True, **fields): an account with a password; verified
    (its e-mail proved, accounts.verification) unless told otherwise."""

    def make(username, verified=True, **extra):
        from interview_platform.accounts.verification import mark_verified

        fields = {"email": f"{username}@example.com", "password": "correct-horse-battery", **extra}
        user = get_user_model().objects.create_user(username=username, **fields)
        if verified:
            mark_verified(user)
        return user

    return make


@pytest.fixture
def candidate(make_user):
    return make_user("candidate")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider")


@pytest.fixture
def staff_author(make_user):
    return make_user("author", is_staff=True)


@pytest.fixture
def candidate_client(client, candidate):
    client.force_login(candidate)
    return client
