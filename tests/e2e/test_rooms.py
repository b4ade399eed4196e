"""A live interview room in two browsers: both type, the edits converge, each sees the
other's named cursor, a quick check one starts shows on the other's page, and a reload
keeps the text. The room needs websockets, so the site is served here by uvicorn (ASGI)
on loopback, on the test database, instead of pytest-django's WSGI live server."""

import re
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from questions.models import Question
from tests.faults.conftest import service_env

from .conftest import LAPTOP, worker_database_url
from .test_axe_audit import serious_violations

pytestmark = pytest.mark.browser
EXERCISE = "python-loop-to-numpy"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def asgi_server(bank, tmp_path):
    """uvicorn serving interview_platform.asgi on 127.0.0.1, on this test's database; its base URL."""
    port = free_port()
    # DEBUG: WhiteNoise serves the static files from their sources, as the live server does.
    env = service_env(worker_database_url(), "", str(settings.RUN_DIR), DEBUG="1")
    log = open(tmp_path / "uvicorn.log", "wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--lifespan",
            "off",
            "interview_platform.asgi:application",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=settings.BASE_DIR,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base_url}/healthz/live", timeout=2)
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "uvicorn.log").read_text(errors="replace")[-3000:]) from None
                time.sleep(0.3)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=15)
        log.close()


@pytest.fixture
def signed_in_page(browser, asgi_server):
    """signed_in_page(user) -> a page in its own browser context, signed in as `user`."""
    contexts = []

    def make(user):
        client = Client()
        client.force_login(user)
        context = browser.new_context(viewport=LAPTOP, base_url=asgi_server, locale="en-GB")
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": asgi_server,
                }
            ]
        )
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()


def shared_code(page):
    return page.locator("#room-editor .cm-content")


def document_text(page):
    """The editor's lines as the person sees them, without the others' cursor labels."""
    return page.evaluate(
        """() => [...document.querySelectorAll("#room-editor .cm-line")].map((line) => {
            const copy = line.cloneNode(true);
            copy.querySelectorAll(".room-cursor").forEach((cursor) => cursor.remove());
            return copy.textContent;
        }).join("\\n")"""
    )


def test_two_people_edit_one_program_and_see_each_others_work(signed_in_page, make_user, screenshot):
    ivy = signed_in_page(make_user("ivy"))
    cand = signed_in_page(make_user("cand"))

    ivy.goto(Question.objects.get(slug=EXERCISE).get_absolute_url())
    ivy.get_by_role("button", name="Open a live interview room").click()
    invite = ivy.locator("#room-invite-link").input_value()
    cand.goto(invite)
    for page, name in ((ivy, "ivy"), (cand, "cand")):
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
    expect(ivy.locator("#room-candidate")).to_have_text("cand")

    ivy.locator("#room-editor .cm-content").click()
    ivy.keyboard.press("Control+End")
    ivy.keyboard.type("\n# ivy was here")
    cand.locator("#room-editor .cm-content").click()
    cand.keyboard.press("Control+Home")
    cand.keyboard.type("# cand was here\n")
    for page in (ivy, cand):
        expect(shared_code(page)).to_contain_text("# ivy was here")
        expect(shared_code(page)).to_contain_text("# cand was here")
    assert document_text(ivy) == document_text(cand)
    expect(ivy.locator(".room-cursor-name", has_text="cand")).to_be_visible()
    # Where cand's caret is: after the line cand typed, at the start of the next.
    expect(ivy.locator(".cm-line", has=ivy.locator(".room-cursor"))).to_contain_text("import numpy")
    expect(cand.locator(".room-cursor-name", has_text="ivy")).to_be_visible()

    cand.get_by_role("button", name="Run on small inputs").click()
    expect(ivy.locator("#room-gradings li", has_text="Quick check by cand")).to_be_visible()
    screenshot(ivy, "interview-room", full_page=True)
    axe = Axe()
    violations = [*serious_violations(ivy, axe, "light"), *serious_violations(ivy, axe, "dark")]
    assert violations == [], "\n".join(violations)

    text = document_text(cand)
    cand.reload()
    expect(cand.locator("#room-connection")).to_have_text("Connected as cand.")
    assert document_text(cand) == text and "# ivy was here" in text

    ivy.on("dialog", lambda dialog: dialog.accept())
    ivy.get_by_role("button", name="End interview").click()
    for page in (ivy, cand):
        expect(page.get_by_role("heading", name=re.compile("^Interview report"))).to_be_visible()
        expect(page.locator(".room-final-code")).to_contain_text("# cand was here")
    violations = [*serious_violations(ivy, axe, "light"), *serious_violations(ivy, axe, "dark")]
    assert violations == [], "\n".join(violations)
    assert ivy.errors == [] and cand.errors == []
