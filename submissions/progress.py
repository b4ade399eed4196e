"""Live progress of a grading, pushed from the worker through the shared cache
(Redis in production, the file cache under `make run`) to the submission page,
the status endpoint and `manage.py grade`.

The harness supervisor reports its phase at most about once a second (never per
timed call); grading.grade hands each verified dict to a ProgressStore, which
keeps only the latest one per submission, with a short TTL so a dead worker's
last word fades instead of showing forever. Queued rows need nothing stored:
their place in the queue is computed when asked (services.queue_position).
"""

import time

from django.core.cache import cache

KEY = "submissions:progress:{}"
#: Longer than the harness's longest quiet stretch (a single long timed call), short
#: enough that a worker that died mid-run stops showing progress within a minute.
TTL_S = 60
#: The cache is written at most this often, whatever the harness sends.
MIN_INTERVAL_S = 1.0

PHASE_LABELS = {
    "queued": "Queued",
    "starting": "Starting the sandbox",
    "loading": "Loading your code",
    "checking": "Checking correctness",
    "timing": "Timing",
    "profiling": "Profiling your code (untimed)",
    "comparing": "Comparing the results",
}


class ProgressStore:
    """A grading's progress callback: keeps the latest harness progress for one
    submission in the cache, at most once per MIN_INTERVAL_S (a phase change is
    kept even sooner, so the page never skips 'comparing')."""

    def __init__(self, submission_id, clock=time.monotonic):
        self.key = KEY.format(submission_id)
        self.clock = clock
        self.last_phase = None
        self.last_write = None

    def start(self):
        """The row is claimed; the sandbox is being set up."""
        self._write({"phase": "starting"})

    def __call__(self, progress):
        now = self.clock()
        changed = progress.get("phase") != self.last_phase
        if not changed and self.last_write is not None and now - self.last_write < MIN_INTERVAL_S:
            return
        self._write(progress)

    def clear(self):
        cache.delete(self.key)

    def _write(self, progress):
        self.last_phase = progress.get("phase")
        self.last_write = self.clock()
        cache.set(self.key, {**progress, "stored_at": time.time()}, timeout=TTL_S)


def latest(submission_id):
    """The last progress stored for a running submission, or None."""
    return cache.get(KEY.format(submission_id))


def describe(progress, elapsed_s=None, queue_position=None):
    """What the page and the terminal show: phase, a one-line label, elapsed seconds,
    an estimate of the seconds left (None when the harness has none yet) and
    `time_left`, those words as the page shows them."""
    phase = progress.get("phase") or "starting"
    eta_s = progress.get("eta_s")
    if eta_s is not None and progress.get("stored_at") is not None:
        eta_s = max(0.0, eta_s - (time.time() - progress["stored_at"]))
    fraction = None
    if elapsed_s is not None and eta_s is not None and elapsed_s + eta_s > 0:
        fraction = round(elapsed_s / (elapsed_s + eta_s), 3)
    return {
        "phase": phase,
        "label": label(progress, queue_position),
        "fraction": fraction,
        "size_index": progress.get("size_index"),
        "sizes": progress.get("sizes"),
        "pair": progress.get("pair"),
        "pairs": progress.get("pairs"),
        "queue_position": queue_position,
        "elapsed_s": None if elapsed_s is None else round(elapsed_s, 1),
        "eta_s": None if eta_s is None else round(eta_s, 1),
        "time_left": time_left_words(phase, eta_s),
    }


#: Phases whose length the harness estimates once it has timed something.
ESTIMATED_PHASES = ("timing", "profiling")


def time_left_words(phase, eta_s):
    """ ", about 12 s left" from the harness's estimate; while timing has no estimate
    yet (its first pairs), ", estimating the time left…"; otherwise nothing."""
    if eta_s is not None:
        return f", about {eta_s:.0f} s left"
    if phase in ESTIMATED_PHASES:
        return ", estimating the time left…"
    return ""


def label(progress, queue_position=None):
    phase = progress.get("phase") or "starting"
    text = PHASE_LABELS.get(phase, phase)
    if phase == "queued" and queue_position is not None:
        return f"{text}: {_ahead(queue_position)}"
    if phase == "timing":
        parts = []
        if progress.get("size_index") and progress.get("sizes"):
            parts.append(f"size {progress['size_index']} of {progress['sizes']}")
        if progress.get("pair") and progress.get("pairs"):
            parts.append(f"pair {progress['pair']} of {progress['pairs']}")
        if parts:
            return f"{text} {', '.join(parts)}"
    return text


def _ahead(position):
    if position == 0:
        return "next in line"
    return f"{position} submission{'s' if position != 1 else ''} ahead"


def bar(progress, width=30):
    """A terminal progress line: a bar filled by elapsed / (elapsed + estimate left)."""
    shown = describe(progress, elapsed_s=progress.get("elapsed_s"))
    filled = int(round((shown["fraction"] or 0.0) * width))
    timing = "" if shown["elapsed_s"] is None else f"{shown['elapsed_s']:.0f} s"
    timing += shown["time_left"]
    return f"[{'#' * filled}{'.' * (width - filled)}] {shown['label']}  {timing}".rstrip()
