"""Time per line of the learner's own module, for the untimed profiled call.

cProfile sees functions, and NumPy's work hides inside a line (`y = x * 2.0`
is one operator, no call), so a vectorised answer's profile is a single row.
A line timer shows which lines the time went to: the one that allocates a
new array against the ones that work in place, the loop body against the rest.

It is a `sys.settrace` hook that only follows frames of one file, so library
code runs untraced. Each line's time runs from its line event to the frame's
next event and includes the calls the line makes (a line calling another of
the module's functions counts that function's time too). The hook's own
bookkeeping falls between two clock readings and is left out, but a line
executed millions of times still carries the cost of entering the hook each
time: a tight Python loop runs 9-16 times slower traced with cProfile alongside,
as the runner uses them, a vectorised one about as fast (bench/profile_overhead.py).
"""

import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TypedDict, TypeVar, TypeVarTuple

#: At most this many lines are kept (the slowest), and this much of each line's text.
MAX_LINES = 40
MAX_CODE_CHARS = 120

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
#: A sys.settrace hook: called with each event, it returns the hook for the frame's next events.
Tracer = Callable[[FrameType, str, object], "Tracer | None"]


class LineRow(TypedDict):
    """One timed line of the learner's module in the profile."""

    line: int
    code: str
    hits: int
    seconds: float


class LineTimer:
    def __init__(self, path: str) -> None:
        self.path = path
        self.seconds_ns: defaultdict[int, int] = defaultdict(int)
        self.hits: defaultdict[int, int] = defaultdict(int)
        self.total_ns = 0  # the traced call's time, the whole of which the lines are shares
        self._open: dict[FrameType, tuple[int, int]] = {}  # frame -> (line, clock at its last event)
        self._clock = time.perf_counter_ns

    def run(self, function: Callable[[*Ts], T], *args: *Ts) -> T:
        """function(*args) with this module's lines timed."""
        previous = sys.gettrace()
        started = self._clock()
        sys.settrace(self._enter)
        try:
            return function(*args)
        finally:
            sys.settrace(previous)
            self.total_ns = self._clock() - started

    def _enter(self, frame: FrameType, event: str, arg: object) -> Tracer | None:
        if frame.f_code.co_filename != self.path:
            return None
        self._open[frame] = (frame.f_lineno, self._clock())
        return self._step

    def _step(self, frame: FrameType, event: str, arg: object) -> Tracer:
        now = self._clock()
        line, since = self._open[frame]
        self.seconds_ns[line] += now - since
        if event == "line":
            self.hits[frame.f_lineno] += 1
            self._open[frame] = (frame.f_lineno, self._clock())
        elif event == "return":
            del self._open[frame]
        else:  # "exception": the frame goes on (caught) or returns next
            self._open[frame] = (line, self._clock())
        return self._step

    def rows(self, source_lines: Sequence[str]) -> list[LineRow]:
        """The slowest lines, in line order: line number, its text, how many
        times it ran and its seconds."""
        slowest = sorted(self.hits, key=lambda line: -self.seconds_ns[line])[:MAX_LINES]
        return [
            {
                "line": line,
                "code": _text(source_lines, line),
                "hits": self.hits[line],
                "seconds": self.seconds_ns[line] / 1e9,
            }
            for line in sorted(slowest)
        ]


def _text(source_lines: Sequence[str], line: int) -> str:
    if 1 <= line <= len(source_lines):
        return source_lines[line - 1].strip()[:MAX_CODE_CHARS]
    return ""
