"""A live interview room in two browsers: both type, the edits converge, each sees the
other's named cursor, a quick check one starts shows on the other's page, a reload keeps
the text, and a connection cut while the other person types reconnects with nothing lost;
a peer interview whose two learners swap roles, each seeing the rubric only while
interviewing; an interviewer who marks the rubric and moves both editors to the next
question. The room needs websockets, so the site is served here by uvicorn (ASGI) on
loopback, on the test database, instead of pytest-django's WSGI live server."""

import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from questions.models import Question
from rooms import services
from rooms.models import Room
from tests import chromium
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
    """signed_in_page(user, base_url=the ASGI server's) -> a page in its own browser context,
    signed in as `user` (the session cookie is the host's, whatever the port)."""
    contexts = []

    def make(user, base_url=asgi_server):
        client = Client()
        client.force_login(user)
        context = browser.new_context(viewport=LAPTOP, base_url=base_url, locale="en-GB")
        context.set_default_timeout(chromium.STEP_TIMEOUT_MS)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": base_url,
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


class Network:
    """One person's network: a TCP proxy on loopback in front of the ASGI server. cut() drops
    every connection through it, as a network that goes away does (the page's websocket closes
    without a closing handshake), and refuses new ones until restore(). Playwright's
    context.set_offline() would not do: it leaves open websockets up (microsoft/playwright#4910)."""

    def __init__(self, server_url):
        self.server = ("127.0.0.1", int(server_url.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.up = True
        self.connections = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            with self.lock:
                if not self.up:
                    client.close()
                    continue
                server = socket.create_connection(self.server)
                self.connections |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            self._drop(end)

    def _drop(self, end):
        with self.lock:
            self.connections.discard(end)
        try:
            end.shutdown(socket.SHUT_RDWR)  # wakes the other direction's recv
        except OSError:
            pass
        end.close()

    def cut(self):
        with self.lock:
            self.up = False
            ends = list(self.connections)
        for end in ends:
            self._drop(end)

    def restore(self):
        with self.lock:
            self.up = True

    def close(self):
        self.listener.close()
        self.cut()


@pytest.fixture
def network(asgi_server):
    network = Network(asgi_server)
    yield network
    network.close()


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


def type_at(page, where, text):
    page.locator("#room-editor .cm-content").click()
    page.keyboard.press(where)
    page.keyboard.type(text)


def test_a_dropped_connection_reconnects_and_loses_nothing_typed_meanwhile(signed_in_page, make_user, network):
    ivy_user, cand_user = make_user("ivy"), make_user("cand")
    room = services.open_room(ivy_user, EXERCISE)
    services.join(cand_user, room.invite_token)
    ivy = signed_in_page(ivy_user)
    cand = signed_in_page(cand_user, base_url=network.url)
    for page, name in ((ivy, "ivy"), (cand, "cand")):
        page.goto(room.get_absolute_url())
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
    type_at(cand, "Control+End", "\n# cand before the cut")
    expect(shared_code(ivy)).to_contain_text("# cand before the cut")

    network.cut()
    expect(cand.locator("#room-connection")).to_have_text("Connection lost: reconnecting…")
    type_at(ivy, "Control+Home", "# ivy while cand was away\n")
    type_at(cand, "Control+End", "\n# cand typed offline")
    expect(shared_code(cand)).to_contain_text("# cand typed offline")
    # Nothing crossed the cut: the server has ivy's line and not yet cand's, cand's page not yet ivy's.
    expect(shared_code(ivy)).to_contain_text("# ivy while cand was away")
    time.sleep(1.5)  # a reconnection attempt or two, refused
    assert "# ivy while cand was away" not in document_text(cand)
    assert "# cand typed offline" not in Room.objects.get(pk=room.pk).text

    network.restore()
    expect(cand.locator("#room-connection")).to_have_text("Connected as cand.")
    for page in (ivy, cand):
        for line in ("# cand before the cut", "# ivy while cand was away", "# cand typed offline"):
            expect(shared_code(page)).to_contain_text(line)
    assert document_text(ivy) == document_text(cand) == Room.objects.get(pk=room.pk).text.rstrip("\n")
    assert ivy.errors == [] and cand.errors == []


def test_two_learners_swap_roles_and_each_sees_the_rubric_only_while_interviewing(
    signed_in_page, make_user, screenshot
):
    ivy = signed_in_page(make_user("ivy"))
    pat = signed_in_page(make_user("pat"))
    rubric = pat.get_by_role("complementary", name="Interviewer's notes and rubric")
    ivy_rubric = ivy.get_by_role("complementary", name="Interviewer's notes and rubric")

    ivy.goto("/rooms/")
    ivy.get_by_role("link", name="invite a learner to a peer interview").click()
    ivy.get_by_label("The learner you invite (their username)").fill("pat")
    ivy.get_by_role("button", name="Open the peer interview").click()
    expect(ivy.locator("#room-half")).to_contain_text("part 1 of 2: you interview pat")
    pat.goto(ivy.locator("#room-invite-link").input_value())
    for page, name in ((ivy, "ivy"), (pat, "pat")):
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
    first_title = ivy.locator("h1").inner_text()
    expect(ivy_rubric).to_be_visible()
    expect(rubric).to_have_count(0)
    expect(pat.locator("#room-half")).to_contain_text("ivy interviews you")
    ivy.get_by_label("Private notes").fill("Ivy on pat: vectorised at once")
    expect(ivy.locator("#room-notes-status")).to_have_text("Notes saved.")
    # At the top: CodeMirror draws only the lines near the screen, and a drawn question may be long.
    type_at(pat, "Control+Home", "# pat's answer\n")
    expect(shared_code(ivy)).to_contain_text("# pat's answer")
    expect(pat.get_by_role("button", name="Swap roles")).to_have_count(0)

    ivy.on("dialog", lambda dialog: dialog.accept())
    ivy.get_by_role("button", name="Swap roles").click()
    for page, name in ((ivy, "ivy"), (pat, "pat")):
        expect(page.locator("#room-half")).to_contain_text("part 2 of 2")
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
    assert pat.locator("h1").inner_text() != first_title
    expect(rubric).to_be_visible()
    expect(ivy_rubric).to_have_count(0)
    expect(pat.get_by_label("Private notes")).to_have_value("")
    expect(ivy.locator("#room-half")).to_contain_text("pat interviews you")
    pat.get_by_label("Private notes").fill("Pat on ivy: explained the cache misses")
    expect(pat.locator("#room-notes-status")).to_have_text("Notes saved.")
    type_at(ivy, "Control+Home", "# ivy's answer\n")
    expect(shared_code(pat)).to_contain_text("# ivy's answer")
    screenshot(pat, "peer-interview-second-half", full_page=True)
    axe = Axe()
    violations = [*serious_violations(pat, axe, "light"), *serious_violations(pat, axe, "dark")]
    assert violations == [], "\n".join(violations)

    pat.on("dialog", lambda dialog: dialog.accept())
    pat.get_by_role("button", name="End interview").click()
    for page, own, other in ((ivy, "Ivy on pat", "Pat on ivy"), (pat, "Pat on ivy", "Ivy on pat")):
        expect(page.get_by_role("heading", name="Peer interview report")).to_be_visible()
        expect(page.get_by_role("heading", name=re.compile("^Part [12]: "))).to_have_count(2)
        expect(page.locator("#room-half-1 .room-final-code")).to_contain_text("# pat's answer")
        expect(page.locator("#room-half-2 .room-final-code")).to_contain_text("# ivy's answer")
        expect(page.locator("main")).to_contain_text(own)
        expect(page.locator("main")).not_to_contain_text(other)
    violations = [*serious_violations(ivy, axe, "light"), *serious_violations(ivy, axe, "dark")]
    assert violations == [], "\n".join(violations)
    assert ivy.errors == [] and pat.errors == []


def test_the_interviewer_marks_the_rubric_and_moves_both_people_to_the_next_question(signed_in_page, make_user):
    Question.objects.filter(slug=EXERCISE).update(rubric=["Vectorises the loop"])  # the bank's coding ones have none
    ivy = signed_in_page(make_user("ivy"))
    cand = signed_in_page(make_user("cand"))
    ivy.goto(Question.objects.get(slug=EXERCISE).get_absolute_url())
    ivy.get_by_role("button", name="Open a live interview room").click()
    cand.goto(ivy.locator("#room-invite-link").input_value())
    for page, name in ((ivy, "ivy"), (cand, "cand")):
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
    expect(cand.locator("#room-next-question")).to_have_count(0)
    shared_code(cand).click()
    cand.keyboard.press("Control+End")
    cand.keyboard.type("\n# first answer")
    expect(shared_code(ivy)).to_contain_text("# first answer")
    ivy.locator("#room-mark-0").select_option(label="Met")
    expect(ivy.locator("#room-marks-status")).to_have_text("Mark saved.")

    slug = ivy.locator("#room-next-question").input_value()
    starter = Question.objects.get(slug=slug).current_exercise().starter_code
    ivy.on("dialog", lambda dialog: dialog.accept())
    ivy.get_by_role("button", name="Move to this question").click()
    title = Question.objects.get(slug=slug).title
    for page, name in ((ivy, "ivy"), (cand, "cand")):
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Interview: {title}")
        expect(page.locator("#room-connection")).to_have_text(f"Connected as {name}.")
        assert document_text(page) == starter

    ivy.get_by_role("button", name="End interview").click()
    for page in (ivy, cand):
        expect(page.get_by_role("heading", name=re.compile("^Question 2: "))).to_be_visible()
        expect(page.locator("#room-question-1-1 .room-final-code")).to_contain_text("# first answer")
        expect(page.locator("#room-question-1-1 .playback-slider")).to_be_visible()
    expect(ivy.locator("#room-question-1-1 .room-rubric-marks")).to_contain_text("Met")
    expect(cand.locator(".room-rubric-marks")).to_have_count(0)
    assert ivy.errors == [] and cand.errors == []
