"""Shared fixtures: a candidate, an outsider and staff. Team fixtures (a hiring-team
member) live in tests/teams/conftest.py beside the tests that use them.

Also the markers of pytest.ini, put on each test by what it does (pytest_collection_modifyitems
below), so `make test-fast` can leave out every test that starts the harness, a browser, a worker
process or Docker without anyone remembering to mark it by hand."""

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.live_server_gate import RequestGate
from tests.sandbox_backends import BACKENDS, require_backend

TESTS = Path(__file__).resolve().parent
#: The judge (grader/, the harness inside it) imports nothing from Django, nor do its tests:
#: the Django state below is not set up for them (`make test-judge` runs them without Django).
DJANGO_FREE = (TESTS / "grader", TESTS / "harness")

#: A fixture that brings up something slow, and the marker a test that uses it gets.
MARKER_OF_FIXTURE = {
    "sandbox_backend": "sandbox",  # a real grading per backend (the Docker one is also marked `docker`)
    "browser": "browser",  # Chromium
    "open_page": "browser",
    "grading_worker": "slow",  # a real Celery worker process
    "start_worker": "slow",
    "broker_url": "slow",  # a private redis-server
}
#: Files, or single tests, that do it through a page, a command or a helper of their own, which
#: neither a fixture nor a call below shows (`make test-fast` fails a test it missed: see
#: pytest_configure).
MARKER_OF_PATH = {
    "grader/test_sandbox.py": "sandbox",  # runs processes in bubblewrap
    "submissions/test_grade_command.py": "sandbox",  # `manage.py grade` grades for real
    "questions/test_bank_exercises.py": "sandbox",  # grades the bank's answers
    "submissions/test_roofline.py::test_grade_json_reports_the_roofline_per_size_and_for_the_host": "sandbox",
    "submissions/test_roofline.py::test_the_host_is_measured_on_a_runner_cpu_and_kept_with_its_identity": "sandbox",
    "submissions/test_progress.py::test_a_real_grading_stores_its_phases_and_clears_them": "sandbox",
    # the authoring pages validate an exercise by grading its model solution
    "authoring/test_authoring.py::test_validation_measures_speedup_and_memory": "sandbox",
    "authoring/test_authoring.py::test_edit_saves_a_new_version_and_keeps_the_old": "sandbox",
    "authoring/test_authoring.py::test_edit_that_fails_validation_is_not_saved": "sandbox",
    "authoring/test_authoring_template.py::test_the_template_validates_and_saves_as_the_first_version": "sandbox",
}
#: Functions that start the real harness, in the sandbox or (tests/harness/jobs.py) as a plain
#: subprocess: a test that calls one of them is a `sandbox` test, seconds each.
HARNESS_STARTERS = {
    ("tests.harness.jobs", "run_job"),
    ("grader.grading", "grade"),
    ("grader.validation", "validate_exercise"),
}


def pytest_configure(config):
    """The cheapest password hasher first, under pytest only: most tests create or sign in
    someone, and PBKDF2's million iterations cost about 0.24 s a password here. The
    others stay listed so a hash they made still checks; a test about one of them sets
    PASSWORD_HASHERS itself (the `settings` fixture)."""
    if not config.pluginmanager.hasplugin("django"):  # make test-judge: the judge's tests run without Django
        return
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    if os.environ.get("HOTPATH_FAST_LANE") == "1":
        # `make test-fast` promises no sandbox: a test that grades there unmarked (through a page,
        # say) fails with what to do, rather than slowing the lane down unseen.
        from grader.sandbox.bwrap import BwrapSandbox

        def refuse(*args, **kwargs):
            pytest.fail(
                "this test runs the sandbox, which make test-fast leaves out: "
                "add it to MARKER_OF_PATH in tests/conftest.py"
            )

        BwrapSandbox.run = refuse


def _names_used(code):
    """Every global name a test's code reads, its nested functions and lambdas included."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names_used(constant)
    return names


def _starts_the_harness(item):
    function = getattr(item, "function", None)
    if function is None:
        return False
    for name in _names_used(function.__code__):
        value = vars(item.module).get(name)
        if (getattr(value, "__module__", None), getattr(value, "__name__", None)) in HARNESS_STARTERS:
            return True
    return False


def _drives_chromium(item):
    """A test module that imports tests/chromium.py drives Debian's Chromium, with or without the
    browser fixture (tests/leaderboards/test_editor_bundle.py opens its own)."""
    return any(getattr(value, "__name__", None) == "tests.chromium" for value in vars(item.module).values())


def pytest_collection_modifyitems(items):
    for item in items:
        # "submissions/test_roofline.py::test_name[param]": matched by its file, its folders and its test
        path, _, name = item.nodeid.removeprefix("tests/").partition("::")
        where = {path, f"{path}::{name.partition('[')[0]}", *(parent.as_posix() for parent in Path(path).parents)}
        markers = {marker for fixture, marker in MARKER_OF_FIXTURE.items() if fixture in item.fixturenames}
        markers |= {marker for place, marker in MARKER_OF_PATH.items() if place in where}
        if _starts_the_harness(item):
            markers.add("sandbox")
        if _drives_chromium(item):
            markers.add("browser")
        for marker in sorted(markers - {marker.name for marker in item.iter_markers()}):
            item.add_marker(marker)


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
def django_test_state(request):
    """The Django state every test of the site starts from (the three fixtures below), set up
    only where Django is used: the harness's tests need none of it."""
    if not any(folder in request.node.path.parents for folder in DJANGO_FREE):
        for name in ("roomy_rate_limits", "one_rate_limit_window", "fresh_bank_version"):
            request.getfixturevalue(name)


@pytest.fixture
def roomy_rate_limits(settings):
    """The suite signs in, signs up and submits far more often (from 127.0.0.1, as reused user
    ids) than a person would, and the file cache keeps counts between runs; the rate-limit
    tests set the rates they test."""
    settings.LOGIN_RATE = settings.SIGNUP_RATE = settings.PASSWORD_RESET_RATE = settings.SUBMISSION_RATE = "1000/m"
    settings.SSO_FIND_RATE = "1000/m"


@pytest.fixture
def one_rate_limit_window(monkeypatch):
    """django-ratelimit counts in fixed windows (a minute, from an offset per key): three posts
    that straddle a window's end start the count over, and a test expecting [302, 302, 429] read
    [302, 302, 302] (stop 24's CI). The tests assert counts, not where a window falls, so
    django-ratelimit reads the clock as it stood when the test began."""
    import django_ratelimit.core

    began = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: began))


@pytest.fixture
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

    from django.contrib.auth import get_user_model

    def make(username, verified=True, **extra):
        from accounts.verification import mark_verified

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
