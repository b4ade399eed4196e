"""Integrity signals of a sitting: the browser's events (validated and capped), the
practice gate on the assessment's questions, and the report's timeline and playback."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from questions.models import Visibility
from teams import services
from teams.models import FinishReason, SignalKind, SittingSignal
from teams.services import integrity


def post_events(client, session, events):
    url = reverse("teams:record_signals", args=[session.pk])
    return client.post(url, json.dumps({"events": events}), content_type="application/json")


def test_paste_and_departure_are_stored_with_their_sizes(session, items, clock):
    clock.advance(minutes=3)
    stored = integrity.record_browser_events(
        session, [{"kind": "paste", "question": 3, "chars": 120}, {"kind": "left_page", "seconds": 40}]
    )
    assert stored == 2
    left, paste = session.signals.order_by("kind")
    assert (left.kind, left.data, left.item) == (SignalKind.LEFT_PAGE, {"seconds": 40}, None)
    assert (paste.kind, paste.data, paste.item) == (SignalKind.PASTE, {"chars": 120}, items[2])
    assert left.at == clock.now - timedelta(seconds=40)  # when the candidate left


@pytest.mark.parametrize(
    "event, message",
    [
        ({"kind": "keystroke", "question": 3}, "Unknown event kind 'keystroke'"),
        ({"kind": "question_opened", "question": 1}, "Unknown event kind"),  # only the server records it
        ({"kind": "paste", "question": 9, "chars": 3}, "names its question by number, 1 to 3"),
        ({"kind": "paste", "question": 3, "chars": -1}, "chars as a whole number"),
        ({"kind": "left_page", "seconds": "ten"}, "seconds as a whole number"),
        ({"kind": "snapshot", "question": 1, "code": "x"}, "coding questions only"),
        ({"kind": "snapshot", "question": 3, "code": "\x00"}, "A snapshot's code is text"),
    ],
)
def test_a_malformed_batch_is_refused_whole(session, event, message):
    with pytest.raises(integrity.BadSignal, match=message):
        integrity.record_browser_events(session, [{"kind": "paste", "question": 3, "chars": 1}, event])
    assert not session.signals.exists()


def test_a_departure_cannot_reach_before_the_sitting(session, clock):
    clock.advance(seconds=30)
    with pytest.raises(integrity.BadSignal, match="from 0 to 31"):
        integrity.record_browser_events(session, [{"kind": "left_page", "seconds": 3600}])


def test_snapshots_are_spaced_unless_taken_at_a_paste(session, clock):
    def snap(code, paste=False):
        event = {"kind": "snapshot", "question": 3, "code": code, "paste": paste}
        return integrity.record_browser_events(session, [event])

    assert snap("a") == 1
    clock.advance(seconds=2)
    assert snap("ab") == 0  # too soon
    assert snap("ab pasted", paste=True) == 1
    clock.advance(seconds=integrity.SNAPSHOT_MIN_SECONDS)
    assert snap("ab pasted") == 0  # unchanged
    assert snap("abc") == 1
    assert [frame["code"] for frame in integrity.playback(session)[0]["frames"]] == ["a", "ab pasted", "abc"]


def test_snapshots_stop_at_the_sittings_cap(session, clock, monkeypatch):
    monkeypatch.setattr(integrity, "MAX_SNAPSHOTS_PER_SITTING", 2)
    for n in range(4):
        clock.advance(seconds=10)
        integrity.record_browser_events(session, [{"kind": "snapshot", "question": 3, "code": f"v{n}"}])
    assert session.signals.filter(kind=SignalKind.SNAPSHOT).count() == 2


def test_the_endpoint_takes_only_the_candidates_open_sitting(candidate_client, outsider, session):
    paste = [{"kind": "paste", "question": 2, "chars": 5}]
    assert post_events(candidate_client, session, paste).json() == {"stored": 1}
    other = Client()
    other.force_login(outsider)
    assert post_events(other, session, [{"kind": "paste", "question": 2, "chars": 5}]).status_code == 404
    services.finish_session(session, FinishReason.SUBMITTED)
    response = post_events(candidate_client, session, [{"kind": "paste", "question": 2, "chars": 5}])
    assert response.status_code == 409
    assert session.signals.count() == 1


def test_the_endpoint_explains_a_bad_request(candidate_client, session):
    response = post_events(candidate_client, session, [{"kind": "mouse", "question": 1}])
    assert response.status_code == 400
    assert "Unknown event kind 'mouse'" in response.json()["error"]
    url = reverse("teams:record_signals", args=[session.pk])
    assert candidate_client.post(url, "not json", content_type="application/json").status_code == 400
    assert post_events(candidate_client, session, [{"kind": "left_page", "seconds": 1}] * 21).status_code == 400


def test_the_endpoint_is_csrf_protected(session, candidate):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(candidate)
    assert post_events(strict, session, [{"kind": "left_page", "seconds": 1}]).status_code == 403


def test_the_endpoint_is_rate_limited(candidate_client, session, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "signals"}}
    settings.TEAMS_SIGNAL_RATE = "2/m"
    back = [{"kind": "left_page", "seconds": 1}]
    codes = [post_events(candidate_client, session, back).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_a_question_of_the_sitting_is_closed_in_practice_and_recorded(candidate_client, session, numeric_question):
    response = candidate_client.get(reverse("questions:detail", args=[numeric_question.slug]))
    assert response.status_code == 403
    assert "closed while your assessment is in progress" in response.content.decode()
    opened = session.signals.get()
    where = (opened.kind, opened.item.number, opened.data["path"])
    assert where == (SignalKind.QUESTION_OPENED, 2, f"/questions/{numeric_question.slug}/")


def test_the_gate_can_be_opened_but_still_records(candidate_client, session, numeric_question, settings):
    settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING = False
    response = candidate_client.get(reverse("questions:detail", args=[numeric_question.slug]))
    assert response.status_code != 403
    assert session.signals.filter(kind=SignalKind.QUESTION_OPENED).count() == 1


def test_the_gate_lifts_once_the_sitting_is_over(candidate_client, session, numeric_question):
    services.finish_session(session, FinishReason.SUBMITTED)
    response = candidate_client.get(reverse("questions:detail", args=[numeric_question.slug]))
    assert response.status_code != 403
    assert not session.signals.exists()


def test_the_timeline_orders_every_event_from_the_start(session, items, clock):
    clock.advance(seconds=65)
    integrity.record_browser_events(session, [{"kind": "paste", "question": 3, "chars": 1500}])
    clock.advance(seconds=30)
    integrity.record_browser_events(session, [{"kind": "left_page", "seconds": 20}])
    integrity.record_question_opened(session, items[1], "/questions/gib-in-bytes/")
    services.submit_code(session, items[2], "def transform(values):\n    return values\n")
    entries = integrity.timeline(session)
    assert [(entry.clock, entry.kind) for entry in entries] == [
        ("+1:05", "paste"),
        ("+1:15", "left_page"),
        ("+1:35", "question_opened"),
        ("+1:35", "submission"),
    ]
    assert entries[0].detail == "1,500 characters"
    assert entries[1].detail == "away 20 s"


def test_the_report_shows_the_timeline_and_the_playback(client, hiring_manager, organisation, session, clock):
    start = {"kind": "snapshot", "question": 3, "code": "def transform(v):\n    pass\n"}
    integrity.record_browser_events(session, [start])
    clock.advance(seconds=2)
    integrity.record_browser_events(
        session,
        [
            {"kind": "paste", "question": 3, "chars": 40},
            {"kind": "snapshot", "question": 3, "code": "def transform(v):\n    return v  # <pasted>\n", "paste": True},
        ],
    )
    client.force_login(hiring_manager)
    page = client.get(reverse("teams:candidate_report", args=[organisation.slug, session.pk])).content.decode()
    assert "Timeline of the sitting" in page
    assert "40 characters" in page
    assert 'class="playback-slider" min="0" max="1" value="1"' in page
    assert "Paste at +2 s" in page
    assert "return v  # &lt;pasted&gt;" in page  # escaped in the page
    assert 'id="playback-frames" type="application/json"' in page


def test_the_start_page_says_what_is_recorded(client, invite):
    _, token = invite("someone@example.com")
    page = client.get(reverse("teams:candidate_start", args=[token])).content.decode()
    assert "no webcam" in page and "no screen capture" in page
    assert "paste" in page and "leave this page" in page


def test_signals_belong_to_the_organisation(session):
    signal = SittingSignal.objects.create(session=session, kind=SignalKind.LEFT_PAGE, at=session.started_at, data={})
    assert signal.organisation == session.assessment.organisation


def test_the_endpoint_refuses_a_body_too_large(candidate_client, session, settings):
    code = "x" * settings.SUBMISSION_MAX_BYTES
    events = [{"kind": "snapshot", "question": 3, "code": code}] * 4
    response = post_events(candidate_client, session, events)
    assert response.status_code == 413
    assert not session.signals.exists()


def test_a_private_question_keeps_its_404_but_is_recorded(candidate_client, session, numeric_question):
    numeric_question.visibility = Visibility.ASSESSMENT
    numeric_question.save()
    assert candidate_client.get(reverse("questions:detail", args=[numeric_question.slug])).status_code == 404
    assert session.signals.filter(kind=SignalKind.QUESTION_OPENED).count() == 1
