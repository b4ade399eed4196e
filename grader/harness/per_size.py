"""One size of a grading: what its timed pairs gathered (SizeRecord), why its
timing stopped, whether the machine was busy during it, and the report entry
made of it. The supervisor fills the records; this module only reads them."""

from collections.abc import Iterable, Sequence
from typing import Final, Generic, Literal, TypedDict, TypeVar, Unpack

import numpy as np

from . import stats

#: Decimal places kept of each call's seconds in the report: 1 ns, the clock's own
#: unit, so the figures recompute exactly from `calls`. At 0.1 us a 20 us call
#: was off by up to 0.5%, and a recomputed speedup by about 0.04%.
CALL_DIGITS = 9
#: A reference call that waited for its CPU (another process held it) for more than
#: this share of its time plus this floor (which covers waking up for the call)
#: measured the machine's other work. The reference is trusted and everything else
#: in the sandbox is frozen during its call, so the submission cannot cause this.
CONTENDED_SHARE = 0.05
CONTENDED_FLOOR_S = 0.0002
#: When at least this share of a size's reference calls were contended and the
#: size's interval never narrowed to its bound (the figure moved), the learner is
#: told the machine was busy (the other processes' time is taken off every call,
#: but not what they did to its caches; docs/benchmarks.md says why contended
#: pairs are not dropped).
BUSY_SHARE = 0.2
#: Why a size's timing stopped (the report's `stopped` per size).
STOPPED_PRECISE: Final = "precise"
STOPPED_BUDGET: Final = "budget"
STOPPED_PLANNED: Final = "planned"
Stopped = Literal["precise", "budget", "planned"]
#: The two sides of every timed pair.
Role = Literal["reference", "submission"]

T = TypeVar("T")


class BySide(TypedDict, Generic[T]):
    """One value per side of the timed pairs."""

    reference: T
    submission: T


class Calls(TypedDict):
    """Every timed call of a size, in pair order (see _calls)."""

    reference_s: list[float]
    submission_s: list[float]
    echo_s: list[float] | None
    reference_waited_s: list[float] | None
    submission_waited_s: list[float] | None
    runs: list[int] | None


class SizeFigures(TypedDict, total=False):
    """The measured fields of a size's report entry, any of them given to entry()."""

    time_s: float | None
    reference_time_s: float | None
    speedup: float | None
    speedup_ci: list[float] | None
    peak_memory_bytes: int | None
    reference_peak_memory_bytes: int | None
    first_call_s: float | None
    reference_first_call_s: float | None
    staging_s: float | None
    reference_staging_s: float | None
    raw_time_s: float | None
    raw_reference_time_s: float | None
    transfer_overhead_s: float | None
    pairs: int | None
    stopped: Stopped | None
    retimed_pairs: int | None
    calls: Calls | None


class SizeEntry(TypedDict):
    """A size's entry in the report: every field present, None where not measured."""

    size: int
    correct: bool
    time_s: float | None
    reference_time_s: float | None
    speedup: float | None
    speedup_ci: list[float] | None
    peak_memory_bytes: int | None
    reference_peak_memory_bytes: int | None
    first_call_s: float | None
    reference_first_call_s: float | None
    staging_s: float | None
    reference_staging_s: float | None
    raw_time_s: float | None
    raw_reference_time_s: float | None
    transfer_overhead_s: float | None
    pairs: int | None
    stopped: Stopped | None
    retimed_pairs: int | None
    calls: Calls | None


class SizeRecord:
    """What the timing of one size gathered, call by call."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.times: BySide[list[float]] = {"reference": [], "submission": []}
        self.peaks: BySide[list[int]] = {"reference": [], "submission": []}
        self.first_call: BySide[float | None] = {"reference": None, "submission": None}
        # GPU only: the untimed copy phases of each timed call, in seconds.
        self.staging: BySide[list[float]] = {"reference": [], "submission": []}
        self.fetching: BySide[list[float]] = {"reference": [], "submission": []}
        # CPU only: one echo call per timed pair (see Grading._echo), in seconds.
        self.transfer: list[float] = []
        # How long each timed call waited for its CPU while another process ran
        # there (Side.call's waited_seconds; None where the kernel does not say).
        self.waited: BySide[list[float | None]] = {"reference": [], "submission": []}
        # Wall time of each timed pair with its bookkeeping (inputs, checks, echo).
        self.pair_ns: list[int] = []
        # Which run (pair of runner processes) timed each kept pair, and whether
        # the size was timed in runs at all (supervisor.HEADLINE_RUNS).
        self.runs: list[int] = []
        self.in_runs = False
        # The reference's answer size here: what each later call's result memfd
        # is pre-allocated to (see ipc.spare_result_memfd).
        self.answer_bytes = 0
        self.correct = True
        self.stopped: Stopped = STOPPED_PLANNED
        # Pairs dropped and timed again because the reference was held off its CPU
        # (Grading._undisturbed_pair): not in the figures, counted here.
        self.retimed = 0

    def overhead(self) -> list[float] | None:
        """The echo timings the statistics net both sides of, or None on GPU
        (no echo: the copies are already outside the window)."""
        return self.transfer or None

    def mean_pair_ns(self) -> float:
        """What a timed pair here has cost on average: the figure to plan a sum
        of pairs with. A median undershoots that sum when an answer's time
        varies call to call (half its calls fast, half slow: the median is a
        fast one), and a jittery but correct answer then ran out of time."""
        return sum(self.pair_ns) / len(self.pair_ns)


def summary(record: SizeRecord) -> SizeEntry:
    """A size's entry in the report from its record: the figures net of the
    transfer overhead, the raw ones beside them, and every timed call."""
    submission, reference = record.times["submission"], record.times["reference"]
    # Times are net of the harness's transfer overhead (see Grading._echo); the raw
    # medians stay in the report so nothing is hidden.
    overhead = record.overhead()
    interval = stats.reported_interval(reference, submission, overhead, runs=record.runs or None)
    return entry(
        record.size,
        correct=record.correct,
        time_s=stats.net_median(submission, overhead),
        reference_time_s=stats.net_median(reference, overhead),
        speedup=stats.speedup(reference, submission, overhead),
        speedup_ci=list(interval) if interval else None,
        raw_time_s=stats.median(submission),
        raw_reference_time_s=stats.median(reference),
        transfer_overhead_s=float(stats.overhead_level(record.transfer)) if record.transfer else None,
        peak_memory_bytes=int(np.median(record.peaks["submission"])),
        reference_peak_memory_bytes=int(np.median(record.peaks["reference"])),
        first_call_s=record.first_call["submission"],
        reference_first_call_s=record.first_call["reference"],
        staging_s=_median_or_none(record.staging["submission"]),
        reference_staging_s=_median_or_none(record.staging["reference"]),
        pairs=len(submission),
        stopped=record.stopped,
        retimed_pairs=record.retimed,
        calls=_calls(record),
    )


def entry(size: int, correct: bool, **numbers: Unpack[SizeFigures]) -> SizeEntry:
    """A size's entry with every field the report promises, None where not measured."""
    fields: SizeEntry = {
        "size": size,
        "time_s": None,
        "reference_time_s": None,
        "speedup": None,
        "speedup_ci": None,
        "peak_memory_bytes": None,
        "reference_peak_memory_bytes": None,
        "correct": correct,
        "first_call_s": None,
        "reference_first_call_s": None,
        "staging_s": None,
        "reference_staging_s": None,
        "raw_time_s": None,
        "raw_reference_time_s": None,
        "transfer_overhead_s": None,
        "pairs": None,
        "stopped": None,
        "retimed_pairs": None,
        "calls": None,
        **numbers,
    }
    return fields


def _calls(record: SizeRecord) -> Calls:
    """Every timed call's seconds, in pair order (warm-up pair excluded), with
    the echo that followed each pair: the speedup and its interval can be
    recomputed from the report alone (stats.speedup). Each is the call's wall
    time less what other processes held of its CPU (the `*_waited_s` lists),
    before the echoes' level is taken off."""

    def rounded(times: Sequence[float]) -> list[float]:
        return [round(seconds, CALL_DIGITS) for seconds in times]

    def waits(role: Role) -> list[float] | None:
        waited = record.waited[role]
        if not waited or None in waited:
            return None
        return rounded([seconds for seconds in waited if seconds is not None])

    return {
        "reference_s": rounded(record.times["reference"]),
        "submission_s": rounded(record.times["submission"]),
        "echo_s": rounded(record.transfer) if record.transfer else None,
        # Of each call's wall time, how long another process held its CPU: already
        # taken off its seconds above (Side.call; docs/benchmarks.md).
        "reference_waited_s": waits("reference"),
        "submission_waited_s": waits("submission"),
        # Which run (fresh pair of runner processes) timed each pair; the interval
        # resamples runs, then pairs within them (stats.speedup_interval).
        "runs": list(record.runs) if record.in_runs else None,
    }


def contended_calls(record: SizeRecord) -> int:
    """How many of a size's timed reference calls waited for their CPU long
    enough to have measured the machine rather than the code (CONTENDED_SHARE)."""
    return sum(
        1
        for seconds, waited in zip(record.times["reference"], record.waited["reference"])
        if waited is not None and waited > CONTENDED_SHARE * seconds + CONTENDED_FLOOR_S
    )


def busy_sizes(records: Iterable[SizeRecord]) -> dict[int, tuple[int, int]]:
    """{size: (contended reference calls, timed pairs)} for the sizes where at
    least BUSY_SHARE of the reference's calls were contended and that contention
    shows in the figure: its interval never came within the size's bound
    (stopped for the budget or the planned count, not as precise). A busy
    machine that left the figure tight is not worth a warning."""
    busy: dict[int, tuple[int, int]] = {}
    for record in records:
        contended, pairs = contended_calls(record), len(record.times["reference"])
        if record.stopped != STOPPED_PRECISE and contended and contended >= BUSY_SHARE * pairs:
            busy[record.size] = (contended, pairs)
    return busy


def _median_or_none(values: Sequence[float]) -> float | None:
    return stats.median(values) if values else None
