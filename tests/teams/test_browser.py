"""The candidate's pages in real Chromium: the countdown from the server's
deadline, answers autosaved as they type, and the end screen."""

import re

import pytest

from submissions.models import Purpose, Submission
from submissions.services import lifecycle
from submissions.states import Status, Verdict
from teams import services
from teams.models import Answer, CandidateSession, FinishReason
from tests import chromium
from tests.teams.test_similarity import ORIGINAL, RENAMED_SWAPPED

pytestmark = [pytest.mark.browser]


@pytest.fixture
def page(live_server, transactional_db, settings):
    # The live server speaks plain HTTP: Secure cookies (the default with DEBUG off) would not come back.
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    with chromium.launched() as browser:
        context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(chromium.STEP_TIMEOUT_MS)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        yield page


def test_candidate_takes_the_assessment_in_a_browser(page, invite):
    from playwright.sync_api import expect

    _, token = invite("browser.candidate@example.com")
    page.goto(f"/teams/invitation/{token}/")
    page.get_by_role("button", name="Start the assessment").click()

    countdown = page.locator(".countdown-value")
    expect(countdown).to_have_text(re.compile(r"^(59|60):\d\d$"))

    page.get_by_label("Your answer").fill("Doubling makes the copies a geometric series.")
    expect(page.locator(".save-status")).to_have_text(re.compile(r"^Saved"))

    page.get_by_role("link", name="Next →").click()
    page.get_by_label("Your answer").fill("4 GiB")
    expect(page.locator(".save-status")).to_have_text(re.compile(r"^Saved"))

    page.get_by_role("link", name="← Previous").click()
    expect(page.get_by_label("Your answer")).to_have_value("Doubling makes the copies a geometric series.")

    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Submit the assessment").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Submitted — the team will be in touch")

    session = CandidateSession.objects.get()
    assert session.finish_reason == FinishReason.SUBMITTED
    numeric = Answer.objects.get(session=session, item__position=1)
    assert numeric.numeric_correct is True
    assert page.errors == []


def test_the_candidate_report_fits_a_phone(page, client, reviewer, organisation, session, items, live_server):
    """The report's facts list once took questions.css's two-column grid (the same
    class name, loaded for the prompt) and ran 1,210 px wide on a 390 px phone."""
    coding = items[2]
    message = "Correct on all 3 sizes and 7 edge cases. " * 4 + "The grading machine was busy."
    report = {
        "verdict": Verdict.ACCEPTED,
        "speedup": 8.0,
        "speedup_ci": [7.2, 8.8],
        "message": message,
        "peak_memory_bytes": 2**20,
        "reference_peak_memory_bytes": 4 * 2**20,
        "hardware": "cpu",
    }
    lifecycle.finish(services.submit_code(session, coding, "def transform(x):\n    return x\n"), report)
    services.finish_session(session, FinishReason.SUBMITTED)
    client.force_login(reviewer)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/teams/org/{organisation.slug}/candidates/{session.pk}/")
    assert page.locator(".grader-message").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.errors, page.errors


def test_a_paste_and_a_tab_switch_reach_the_reports_timeline_and_playback(
    page, client, reviewer, organisation, invite, live_server, clock, items, make_user
):
    from playwright.sync_api import expect

    _, token = invite("pasting.candidate@example.com")
    page.goto(f"/teams/invitation/{token}/")
    expect(page.locator(".recorded")).to_contain_text("no screen capture")
    page.get_by_role("button", name="Start the assessment").click()
    session = CandidateSession.objects.get()
    page.goto(f"/teams/sessions/{session.pk}/q/3/")
    editor = page.locator(".cm-content")
    expect(editor).to_be_visible()
    copied = "import numpy as np\n\ndef transform(values):\n    return np.square(values)\n"
    editor.click()
    page.keyboard.press("Control+A")
    # A paste as the browser delivers it: a paste event carrying the clipboard's text.
    editor.evaluate(
        "(el, text) => { const data = new DataTransfer(); data.setData('text/plain', text);"
        " el.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true})); }",
        copied,
    )
    expect(editor).to_contain_text("np.square(values)")

    # Headless Chromium keeps every tab visible and focused, whichever is in front: the
    # switch is played as the browser reports one, the page hidden and then shown again.
    hide = (
        "hidden => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});"
        " Object.defineProperty(document, 'visibilityState', {value: hidden ? 'hidden' : 'visible', configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    clock.advance(minutes=2)  # the test's clock stands still: without this, no departure fits in the sitting
    page.evaluate(hide, True)
    page.wait_for_timeout(1500)
    page.evaluate(hide, False)

    signals = session.signals
    for _ in range(100):
        if signals.filter(kind="left_page").exists() and signals.filter(kind="snapshot", data__paste=True).exists():
            break
        page.wait_for_timeout(100)
    assert signals.get(kind="paste").data == {"chars": len(copied)}

    # The numeric answer looked up in Practice mid-sitting: refused there, and recorded.
    page.goto(f"/questions/{items[1].question.slug}/")
    expect(page.locator("main")).to_contain_text("assessment")
    # The copied answer, submitted and graded, is a copy of an accepted public practice answer.
    practice = Submission.objects.create(
        user=make_user("author"),
        exercise=items[2].exercise_version,
        code=ORIGINAL,
        purpose=Purpose.PRACTICE,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    lifecycle.finish(
        services.submit_code(session, items[2], RENAMED_SWAPPED),
        {
            "verdict": Verdict.ACCEPTED,
            "speedup": 2.0,
            "speedup_ci": [1.8, 2.2],
            "message": "ok",
            "peak_memory_bytes": 2**20,
            "reference_peak_memory_bytes": 2**20,
            "hardware": "cpu",
        },
    )

    client.force_login(reviewer)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"/teams/org/{organisation.slug}/candidates/{session.pk}/")
    timeline = page.locator(".signal-timeline")
    expect(timeline.locator(".signal-paste")).to_contain_text(f"{len(copied)} characters")
    expect(timeline.locator(".signal-left_page")).to_contain_text("away")
    expect(timeline.locator(".signal-question_opened")).to_contain_text("Q2")
    flag = page.locator("#similarity .similarity-flag")
    expect(flag).to_contain_text(f"public practice answer #{practice.pk}")
    flag.locator("summary").click()
    expect(flag.locator("mark.match").first).to_be_visible()
    slider = page.locator(".playback-slider")
    code = page.locator(".playback-code")
    expect(code).to_contain_text("np.square(values)")
    slider.fill("0")
    expect(code).to_have_text("def transform(values):\n    return values\n")  # the starter, where the playback starts
    page.get_by_role("button", name=re.compile(r"^Paste at")).click()
    expect(code).to_contain_text("np.square(values)")
    expect(page.locator(".playback-position")).to_contain_text("after a paste")
    assert not page.errors, page.errors
