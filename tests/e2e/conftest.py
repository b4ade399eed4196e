"""Browser tests: Debian's Chromium, driven by Playwright's sync API, against
pytest-django's live server, with a real Celery worker process that grades
submissions from the same database (PostgreSQL when DATABASE_URL is set,
otherwise the SQLite test database, a file) through the same broker (REDIS_URL,
otherwise the filesystem broker under settings.RUN_DIR). `make test` gives each run
its own HOTPATH_RUN_DIR, so a `make run` beside it cannot take these tests'
grading tasks; a bare `pytest` shares .run/ with `make run`, whose worker then
would. The worker helpers are the fault tests' (tests/faults/conftest.py).

Screenshots go to docs/screenshots/ with HOTPATH_SCREENSHOTS=1, otherwise to a
temporary folder, so an ordinary run leaves the tree clean. A failing test
leaves a screenshot of every open page in test-artifacts/."""

import io
import os
import re
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from tests import chromium
from tests.faults.conftest import Worker, service_env

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
#: A full grading: sandbox start, reference and submission timed at three sizes, on a busy machine.
GRADING_TIMEOUT_MS = 120_000
PASSWORD = "a-long-e2e-passphrase-42"
VERIFICATION_LINK = re.compile(r"https?://\S+/accounts/verify/\S+/")

ROOT = Path(settings.BASE_DIR)
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(autouse=True)
def plain_http_cookies(settings):
    """The live server speaks plain HTTP: cookies marked Secure (the default with DEBUG off)
    would never come back from the browser."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell a failure at teardown."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="package")
def browser():
    with chromium.launched() as browser:
        yield browser


def worker_database_url():
    """A DATABASE_URL for the test database this process uses (after pytest-django created it)."""
    data = connection.settings_dict
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():
            pytest.skip(
                "the grading worker cannot share an in-memory SQLite test database; set DATABASES TEST NAME to a file"
            )
        return f"sqlite:///{Path(data['NAME']).resolve()}"
    if connection.vendor == "postgresql":
        password = f":{quote(data['PASSWORD'], safe='')}" if data.get("PASSWORD") else ""
        host = data.get("HOST") or "127.0.0.1"
        port = data.get("PORT") or 5432
        return f"postgres://{quote(data['USER'], safe='')}{password}@{host}:{port}/{data['NAME']}"
    pytest.skip(f"browser tests support SQLite and PostgreSQL, not {connection.vendor}")


@pytest.fixture(scope="package")
def grading_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """One `celery worker -P solo -Q cpu,check` process for the browser tests, on the test
    database and the broker the live server sends to."""
    if shutil.which("bwrap") is None:
        pytest.skip("grading needs bubblewrap (bwrap); scripts/ensure-system-deps.sh installs it")
    with django_db_blocker.unblock():
        database_url = worker_database_url()
    if not settings.REDIS_URL:
        # The filesystem broker writes into folders it does not create.
        for key in ("data_folder_in", "data_folder_out", "processed_folder"):
            Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS[key]).mkdir(parents=True, exist_ok=True)
    env = service_env(database_url, settings.REDIS_URL, str(settings.RUN_DIR))
    worker = Worker(env, tmp_path_factory.mktemp("e2e-worker") / "worker.log", name="e2e")
    try:
        worker.wait_ready(timeout_s=120)
        yield worker
    finally:
        worker.stop()


def worker_log_tail(worker, chars=4000):
    return worker.log_path.read_text(errors="replace")[-chars:]


@pytest.fixture
def bank(transactional_db):
    """The real question bank, loaded without grading each exercise first."""
    call_command("load_bank", "--skip-validation", stdout=io.StringIO())


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory):
    if os.environ.get("HOTPATH_SCREENSHOTS") == "1":
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def screenshot(screenshot_dir):
    def take(page, name, full_page=False):
        page.screenshot(path=str(screenshot_dir / f"{name}.png"), full_page=full_page, animations="disabled")

    return take


@pytest.fixture
def open_page(browser, live_server, request):
    """open_page(viewport=LAPTOP) -> a new page in its own browser context (its own
    cookies: one per person), with base_url set to the live server. JavaScript
    errors on any page are collected in open_page.errors."""
    contexts = []
    errors = []

    def make(viewport=LAPTOP):
        # Reduced motion: charts draw at once, so screenshots and assertions see the final state.
        context = browser.new_context(
            viewport=viewport, base_url=live_server.url, locale="en-GB", reduced_motion="reduce"
        )
        context.set_default_timeout(chromium.STEP_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        return page

    make.errors = errors
    yield make
    failed = getattr(request.node, "report_call", None) is not None and request.node.report_call.failed
    for number, context in enumerate(contexts):
        if failed:
            ARTIFACTS.mkdir(exist_ok=True)
            stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
            for index, page in enumerate(context.pages):
                page.screenshot(path=str(ARTIFACTS / f"{stem}-{number}-{index}.png"), full_page=True)
        context.close()


def sign_up(page, username, email):
    """Fill and send the sign-up form on the current page, then verify the address with
    the link it mails, and come back to the page sign-up led to."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(email)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    verify_email(page, email)


def verify_email(page, email):
    """Open the verification link mailed to `email` (the live server runs in this process:
    pytest-django's locmem outbox), then go back to the page the browser was on."""
    from django.core import mail
    from playwright.sync_api import expect

    arrived = page.url
    message = [message for message in mail.outbox if email in message.to][-1]
    page.goto(VERIFICATION_LINK.search(message.body).group(0))
    expect(page.get_by_text(f"{email} is verified.")).to_be_visible()
    page.goto(arrived)
