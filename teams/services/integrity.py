"""A sitting's integrity record: what the candidate's browser reports (pastes, leaving
the page, code snapshots for playback) and what the server sees itself (the
assessment's questions opened elsewhere on the site), and the report's timeline of
all of it with the quick checks and submissions.

No webcam, no screen capture, no keystroke log: snapshots are whole code texts at
most one every SNAPSHOT_MIN_SECONDS per question (and one at each paste), bounded
per sitting, so playback shows how the code came to be without recording each key.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from submissions.models import Purpose

from ..models import CandidateSession, SignalKind, SittingSignal
from .errors import TeamsError
from .sittings import ensure_accepting_answers, finalise_if_expired

#: What the browser may report; QUESTION_OPENED only the server records.
BROWSER_KINDS = (SignalKind.PASTE, SignalKind.LEFT_PAGE, SignalKind.SNAPSHOT)
MAX_EVENTS_PER_REQUEST = 20
MAX_SIGNALS_PER_SITTING = 2000
MAX_SNAPSHOTS_PER_SITTING = 600
SNAPSHOT_MIN_SECONDS = 5
#: A paste larger than any answer could hold is a broken client, not a signal.
MAX_PASTE_CHARS = 10_000_000


class BadSignal(TeamsError):
    """The browser sent something this endpoint does not take (answered 400)."""


def record_browser_events(session, events, now=None):
    """Validate and store a batch of browser events for an open sitting. Returns how
    many were stored: snapshots closer than SNAPSHOT_MIN_SECONDS to the question's
    last one (unless taken at a paste), identical to it, or past the sitting's caps
    are skipped, not refused. Raises BadSignal for a malformed batch (nothing is
    stored then) and SessionClosed once the sitting is over."""
    now = now or timezone.now()
    ensure_accepting_answers(session, now)
    if not isinstance(events, list) or not events:
        raise BadSignal("Send a non-empty list of events.")
    if len(events) > MAX_EVENTS_PER_REQUEST:
        raise BadSignal(f"At most {MAX_EVENTS_PER_REQUEST} events a request.")
    items = {item.position + 1: item for item in session.assessment.items.select_related("question")}
    signals = [_signal_from_event(session, items, event, now) for event in events]
    stored = 0
    for signal in signals:
        if _within_caps(session, signal):
            signal.save()
            stored += 1
    return stored


def _signal_from_event(session, items, event, now):
    if not isinstance(event, dict):
        raise BadSignal("Each event is an object with a kind.")
    kind = event.get("kind")
    if kind not in BROWSER_KINDS:
        allowed = ", ".join(BROWSER_KINDS)
        raise BadSignal(f"Unknown event kind {kind!r}: this endpoint takes {allowed}.")
    item = None
    if kind != SignalKind.LEFT_PAGE:
        item = items.get(event.get("question"))
        if item is None:
            raise BadSignal(f"A {kind} event names its question by number, 1 to {len(items)}.")
    if kind == SignalKind.PASTE:
        chars = _whole_number(event, "chars", MAX_PASTE_CHARS)
        return SittingSignal(session=session, item=item, kind=kind, at=now, data={"chars": chars})
    if kind == SignalKind.LEFT_PAGE:
        limit = int((now - session.started_at).total_seconds()) + 1
        seconds = _whole_number(event, "seconds", limit)
        return SittingSignal(
            session=session,
            kind=kind,
            at=max(now - timedelta(seconds=seconds), session.started_at),
            data={"seconds": seconds},
        )
    code = event.get("code")
    if not isinstance(code, str) or "\x00" in code or len(code.encode()) > settings.SUBMISSION_MAX_BYTES:
        raise BadSignal(f"A snapshot's code is text of at most {settings.SUBMISSION_MAX_BYTES:,} bytes.")
    if not item.is_coding:
        raise BadSignal("Snapshots are taken of coding questions only.")
    data = {"code": code, "paste": bool(event.get("paste"))}
    return SittingSignal(session=session, item=item, kind=kind, at=now, data=data)


def _whole_number(event, name, limit):
    value = event.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
        raise BadSignal(f"A {event['kind']} event gives {name} as a whole number from 0 to {limit}.")
    return value


def _within_caps(session, signal):
    if session.signals.count() >= MAX_SIGNALS_PER_SITTING:
        return False
    if signal.kind != SignalKind.SNAPSHOT:
        return True
    snapshots = session.signals.filter(kind=SignalKind.SNAPSHOT)
    if snapshots.count() >= MAX_SNAPSHOTS_PER_SITTING:
        return False
    last = snapshots.filter(item=signal.item).order_by("-at", "-pk").first()
    if last is None:
        return True
    if last.data.get("code") == signal.data["code"]:
        return False
    return signal.data["paste"] or signal.at - last.at >= timedelta(seconds=SNAPSHOT_MIN_SECONDS)


def open_sitting_with_question(user, slug, now=None):
    """The user's sitting in progress whose assessment holds the question `slug`, with
    that item, or (None, None)."""
    if not user.is_authenticated:
        return None, None
    sessions = CandidateSession.objects.select_related("assessment", "invitation").filter(
        candidate=user, finished_at__isnull=True, assessment__items__question__slug=slug
    )
    for session in sessions:
        if not finalise_if_expired(session, now):
            return session, session.assessment.items.get(question__slug=slug)
    return None, None


def record_question_opened(session, item, path, now=None):
    """The server saw the candidate open one of the sitting's questions outside it."""
    return SittingSignal.objects.create(
        session=session, item=item, kind=SignalKind.QUESTION_OPENED, at=now or timezone.now(), data={"path": path[:300]}
    )


@dataclass(frozen=True)
class TimelineEntry:
    seconds: int  # after the sitting's start
    kind: str
    label: str
    question: int | None
    detail: str

    @property
    def clock(self):
        minutes, seconds = divmod(max(self.seconds, 0), 60)
        return f"+{minutes}:{seconds:02d}"


def timeline(session):
    """Every signal but snapshots, and every quick check and submission, in order,
    timed from the sitting's start."""

    def offset(moment):
        return int((moment - session.started_at).total_seconds())

    entries = []
    for signal in session.signals.exclude(kind=SignalKind.SNAPSHOT).select_related("item"):
        number = signal.item.number if signal.item else None
        label = signal.get_kind_display()
        entries.append(TimelineEntry(offset(signal.at), signal.kind, label, number, _detail(signal)))
    for link in session.session_submissions.select_related("submission", "item"):
        submission = link.submission
        check = submission.purpose == Purpose.ASSESSMENT_CHECK
        entries.append(
            TimelineEntry(
                offset(submission.created_at),
                "quick_check" if check else "submission",
                "Quick check" if check else "Submitted for grading",
                link.item.number,
                submission.verdict_label or submission.get_status_display(),
            )
        )
    return sorted(entries, key=lambda entry: entry.seconds)


def _detail(signal):
    if signal.kind == SignalKind.PASTE:
        return f"{signal.data['chars']:,} characters"
    if signal.kind == SignalKind.LEFT_PAGE:
        minutes, seconds = divmod(signal.data["seconds"], 60)
        return f"away {minutes} min {seconds} s" if minutes else f"away {seconds} s"
    return f"at {signal.data.get('path', '')}"


def playback(session):
    """Per coding question, its snapshots for the report's slider: [{"question": n,
    "frames": [{"t": seconds, "code": text, "paste": bool}]}], questions in order."""
    questions = {}
    for signal in session.signals.filter(kind=SignalKind.SNAPSHOT).select_related("item"):
        frames = questions.setdefault(signal.item.number, [])
        frames.append(
            {
                "t": int((signal.at - session.started_at).total_seconds()),
                "code": signal.data["code"],
                "paste": signal.data.get("paste", False),
            }
        )
    return [{"question": number, "frames": frames} for number, frames in sorted(questions.items())]
