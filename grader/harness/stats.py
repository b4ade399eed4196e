"""Statistics over the timings: pure numpy and deterministic.

Timings come in pairs (one reference call and one submission call on the
same fresh input, back to back). The speedup is the median over pairs of
each pair's ratio, and its interval resamples whole pairs: a pair is a
controlled comparison (same input, back to back), so a slow spell of a
shared host that hits both members cancels in their ratio. The ratio of the
two sides' separate medians ignores the pairing; on this project's shared
VM it repeated 1.4-2x less tightly from grading to grading than the median
pair ratio (docs/benchmarks.md, "Repeatability").

Every timed CPU call also carries the harness's own transfer work (inputs
delivered, result copied into a sealed memfd), the same for both sides. Left
in, that fixed cost pulls every speedup towards 1 on memory-bound exercises,
so the supervisor measures it with "echo" calls (one per pair, see
supervisor.Grading._echo) and each time below is net of their level
(overhead_level: the median of the echoes, stalls left out).
"""

from collections.abc import Iterator, Sequence
from statistics import NormalDist
from typing import overload

import numpy as np
import numpy.typing as npt

BOOTSTRAP_RESAMPLES = 4000
#: Fixed so the same timings always give the same interval.
BOOTSTRAP_SEED = 20240917
#: A net time is never taken below the overhead's own call-to-call jitter (its
#: median absolute deviation: a difference smaller than that cannot be told
#: from zero), nor below this fraction of its raw time. Code far faster than
#: the harness's transfers at a size is then reported as "this fast at least"
#: instead of turning the overhead's noise into an absurd speedup. Nor is it
#: ever above the raw time: the jitter of a loaded machine's echoes once
#: exceeded a 10 us call's whole time, and the report gave a net time longer
#: than the call it came from.
NET_FLOOR_FRACTION = 0.05
#: An echo slower than this many times the echoes' lower quartile is a stall of
#: the host, not the harness's transfer cost (see overhead_level).
STALL_FACTOR = 2.0
#: How far a grading's figure moves from one grading to the next beyond what its
#: own pairs and runs show, as a standard deviation of its logarithm (about the
#: relative one): the host's drift over minutes, which no grading's own calls can
#: see. Measured over the coverage runs (docs/benchmarks.md, "An interval that
#: covers the next grading"); reported_interval adds it.
BETWEEN_GRADINGS_SD = 0.04

FloatArray = npt.NDArray[np.float64]
#: Timings in seconds: a list as the supervisor gathers them, or an array whose
#: last axis holds one timing per pair (one row per bootstrap resample).
Timings = Sequence[float] | FloatArray
#: A time or a time per pair: a float, or an array of them.
Seconds = float | FloatArray
#: A figure over the last axis of timings: a NumPy scalar from one row of them, an
#: array with one figure per row from several.
Level = np.float64 | FloatArray


def median(values: Timings) -> float:
    """The median of the timings, as a Python float."""
    return float(np.median(np.asarray(values, dtype=float)))


def net_median(times: Timings, overhead_times: Timings | None = None) -> float:
    """The median time net of the overhead (overhead_level, when given), not
    below the floor described at NET_FLOOR_FRACTION."""
    raw = median(times)
    if overhead_times is None:
        return raw
    return float(_net(raw, overhead_level(overhead_times), overhead_jitter(overhead_times)))


def overhead_level(overhead_times: Timings) -> FloatArray:
    """What the harness's own transfer costs a call (along the last axis): the
    median of the echo timings that are not stalls.

    An echo does a fixed amount of work, but on a virtual machine up to a
    quarter of them may stall for far longer than a whole real call, so the
    plain median of a set can be a stall; subtracted, it would take every net
    time to its floor and read any speedup as exactly 1x. Echoes above STALL_FACTOR times the lower quartile are left
    out (the lower quartile holds up to three stalls in four). The median of
    the rest, not their lower quartile: ordinary jitter goes both ways, and a
    level read low leaves part of the overhead in both sides' times, which
    pulls every ratio towards 1."""
    overhead = np.asarray(overhead_times, dtype=float)
    lower_quartile = np.percentile(overhead, 25, axis=-1, keepdims=True)
    # The median of what is left per row, computed directly: stalls sort last as
    # infinities, and the middle of the finite values is read off. The same figure as
    # np.nanmedian, at half its cost over the bootstrap's thousands of rows.
    kept = np.sort(np.where(overhead <= STALL_FACTOR * lower_quartile, overhead, np.inf), axis=-1)
    count = np.sum(np.isfinite(kept), axis=-1, keepdims=True)
    low = np.take_along_axis(kept, (count - 1) // 2, axis=-1)
    high = np.take_along_axis(kept, count // 2, axis=-1)
    level: FloatArray = ((low + high) / 2.0)[..., 0]
    return level


@overload
def _net(raw: FloatArray, overhead: Seconds, jitter: Seconds) -> FloatArray: ...
@overload
def _net(raw: float, overhead: Seconds, jitter: Seconds) -> Seconds: ...
def _net(raw: Seconds, overhead: Seconds, jitter: Seconds) -> Seconds:
    return np.minimum(np.maximum(np.maximum(raw - overhead, NET_FLOOR_FRACTION * raw), jitter), raw)


def overhead_jitter(overhead_times: Timings) -> Level:
    """How much the overhead timings scatter (along the last axis): the median
    absolute deviation of the faster half from its median, so that stalls
    (see overhead_level) do not pass for jitter."""
    overhead = np.sort(np.asarray(overhead_times, dtype=float), axis=-1)
    faster = overhead[..., : (overhead.shape[-1] + 1) // 2]
    centre = np.median(faster, axis=-1, keepdims=True)
    jitter: Level = np.median(np.abs(faster - centre), axis=-1)
    return jitter


def speedup(reference_times: Timings, submission_times: Timings, overhead_times: Timings | None = None) -> float:
    """How many times faster the submission is: the median over pairs of
    reference time / submission time, both net of the overhead's level when
    overhead_times is given."""
    reference, submission, overhead = _pairs(reference_times, submission_times, overhead_times)
    return float(np.median(_pair_ratios(reference, submission, overhead)))


def speedup_interval(
    reference_times: Timings,
    submission_times: Timings,
    overhead_times: Timings | None = None,
    confidence: float = 0.95,
    runs: Sequence[int] | None = None,
) -> tuple[float, float] | None:
    """Percentile-bootstrap interval for the speedup.

    Resamples whole pairs (with their echo, when overhead_times has one per
    pair) and recomputes the same statistic as the point estimate (the median
    pair ratio, the overhead's level recomputed from the resample), so the
    interval is about the number shown, keeps the pairing and includes the
    uncertainty of the overhead.

    `runs`, when given, names for each pair the pair of runner processes that
    timed it. Pairs from one process share what that process drew (its memory
    layout and pages, the moment it ran), so with two or more runs the resampling
    is in two stages: runs with replacement, then pairs within each drawn run
    (the hierarchical bootstrap). The interval then covers what moves from one
    process to the next, which is what moves from one grading to the next.
    Returns (low, high), or None with fewer than 3 pairs.
    """
    reference, submission, overhead = _pairs(reference_times, submission_times, overhead_times)
    if reference.size < 3:
        return None
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = _resampled_pairs(rng, reference.size, runs)
    resampled_overhead = None if overhead is None else overhead[picks]
    # The floor's jitter is a property of the harness at this size, taken from
    # every echo; only the overhead level is re-estimated per resample.
    jitter = None if overhead is None else overhead_jitter(overhead)
    ratios = np.median(_pair_ratios(reference[picks], submission[picks], resampled_overhead, jitter), axis=-1)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ratios, [tail, 100.0 - tail])
    return float(low), float(high)


def reported_interval(
    reference_times: Timings,
    submission_times: Timings,
    overhead_times: Timings | None = None,
    runs: Sequence[int] | None = None,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """The interval a report gives for the speedup: speedup_interval's (what this
    grading's own pairs and runs show) widened on each side, in logarithms, by
    the host's drift between gradings (BETWEEN_GRADINGS_SD at the same
    confidence), the two added in quadrature as independent errors are. It is
    meant to hold the next grading's figure, not only this one's. The stopping
    rule keeps to speedup_interval: more pairs cannot narrow the host's term.
    None where speedup_interval is None."""
    interval = speedup_interval(reference_times, submission_times, overhead_times, confidence, runs)
    if interval is None:
        return None
    point = np.log(speedup(reference_times, submission_times, overhead_times))
    host = NormalDist().inv_cdf(0.5 + confidence / 2.0) * BETWEEN_GRADINGS_SD
    low, high = (np.log(max(bound, np.finfo(float).tiny)) for bound in interval)
    return (
        float(np.exp(point - np.hypot(point - low, host))),
        float(np.exp(point + np.hypot(high - point, host))),
    )


def _resampled_pairs(rng: np.random.Generator, count: int, runs: Sequence[int] | None) -> npt.NDArray[np.int64]:
    """BOOTSTRAP_RESAMPLES rows of `count` pair indices: pairs drawn with
    replacement, or with two or more distinct `runs`, runs drawn with
    replacement and then, for each run's place, as many of the drawn run's own
    pairs as the run in that place had (so every row keeps `count` pairs)."""
    if runs is None or len(set(runs)) < 2:
        return rng.integers(0, count, size=(BOOTSTRAP_RESAMPLES, count))
    labels = np.asarray(runs)
    if labels.size != count:
        raise ValueError("one run label per pair")
    members = [np.flatnonzero(labels == label) for label in dict.fromkeys(labels.tolist())]
    sizes = np.array([member.size for member in members])
    starts = np.cumsum(sizes) - sizes
    flat = np.concatenate(members)
    drawn = rng.integers(0, len(members), size=(BOOTSTRAP_RESAMPLES, len(members)))
    columns = []
    for place, own in enumerate(members):
        chosen = drawn[:, place]
        for _ in range(own.size):
            within = (rng.random(BOOTSTRAP_RESAMPLES) * sizes[chosen]).astype(np.int64)
            columns.append(flat[starts[chosen] + within])
    return np.column_stack(columns)


def precise_enough(
    reference_times: Timings,
    submission_times: Timings,
    overhead_times: Timings | None,
    half_width: float,
    runs: Sequence[int] | None = None,
) -> bool:
    """The sequential stopping rule (docs/benchmarks.md, "When timing stops"):
    whether the speedup's interval over the pairs so far (speedup_interval,
    the same one the report shows) lies within `half_width` of the speedup,
    as a fraction of it. False with fewer than 3 pairs (no interval yet); the
    caller sets the minimum number of pairs before it asks."""
    interval = speedup_interval(reference_times, submission_times, overhead_times, runs=runs)
    if interval is None:
        return False
    point = speedup(reference_times, submission_times, overhead_times)
    low, high = interval
    return high - low <= 2.0 * half_width * point


def counts_meeting_the_rule(
    reference_times: Timings,
    submission_times: Timings,
    overhead_times: Timings | None,
    half_width: float,
    first: int,
    last: int,
) -> Iterator[int]:
    """The stopping rule replayed on recorded pairs: each count of pairs from
    `first` to `last`, in order, at which precise_enough holds over that many
    first pairs (lazily: a replay that wants the stop takes the first). The
    supervisor asks the same question as its pairs come in; this is how a
    report's `calls` or a recorded run are checked against it afterwards
    (tests/harness, bench/stopping_study.py)."""
    for count in range(first, last + 1):
        overhead = None if overhead_times is None else overhead_times[:count]
        if precise_enough(reference_times[:count], submission_times[:count], overhead, half_width):
            yield count


def _pairs(
    reference_times: Timings, submission_times: Timings, overhead_times: Timings | None
) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    reference = np.asarray(reference_times, dtype=float)
    submission = np.asarray(submission_times, dtype=float)
    if reference.size != submission.size:
        raise ValueError("timings must come in pairs")
    overhead = None if overhead_times is None else np.asarray(overhead_times, dtype=float)
    if overhead is not None and overhead.size != reference.size:
        raise ValueError("one overhead timing per pair")
    return reference, submission, overhead


def _pair_ratios(
    reference: FloatArray, submission: FloatArray, overhead: FloatArray | None, jitter: Level | None = None
) -> FloatArray:
    """reference / submission per pair (along the last axis), each net of the
    overhead level over the same pairs when overhead is given."""
    net_reference, net_submission = net_pairs(reference, submission, overhead, jitter)
    return net_reference / net_submission


def net_pairs(
    reference: FloatArray, submission: FloatArray, overhead: FloatArray | None, jitter: Level | None = None
) -> tuple[FloatArray, FloatArray]:
    """Both sides' times per pair (along the last axis), net of the overhead
    level over the same pairs when overhead is given, floored (see
    NET_FLOOR_FRACTION); unchanged without overhead."""
    if overhead is None:
        return reference, submission
    centre = overhead_level(overhead)[..., np.newaxis]
    jitter = np.asarray(overhead_jitter(overhead))[..., np.newaxis] if jitter is None else jitter
    return _net(reference, centre, jitter), _net(submission, centre, jitter)


def scaling_exponent(sizes: Sequence[float], times: Sequence[float]) -> float | None:
    """Least-squares slope of log(time) against log(size): ~1 for linear work,
    ~2 for quadratic. None when fewer than two distinct positive sizes."""
    points = [(s, t) for s, t in zip(sizes, times) if s > 0 and t > 0]
    if len({s for s, _ in points}) < 2:
        return None
    x = np.log([s for s, _ in points])
    y = np.log([t for _, t in points])
    slope, _ = np.polyfit(x, y, 1)
    return float(slope)
