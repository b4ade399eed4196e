"""Statistics over the timings: pure numpy and deterministic.

Timings come in pairs (one reference call and one submission call on the
same fresh input, back to back), so both the point estimate and the interval
use the pairs: a slow moment of the machine hits both members of a pair.

Every timed CPU call also carries the harness's own transfer work (inputs
delivered, result copied into a sealed memfd), the same for both sides. Left
in, that fixed cost pulls every speedup towards 1 on memory-bound exercises,
so the supervisor measures it with "echo" calls (one per pair, see
supervisor.Grading._echo) and each time below is net of the echoes' median.
"""
import numpy as np

BOOTSTRAP_RESAMPLES = 4000
#: Fixed so the same timings always give the same interval.
BOOTSTRAP_SEED = 20240917
#: A net time is never taken below the overhead's own call-to-call jitter (its
#: median absolute deviation: a difference smaller than that cannot be told
#: from zero), nor below this fraction of its raw median. Code far faster than
#: the harness's transfers at a size is then reported as "this fast at least"
#: instead of turning the overhead's noise into an absurd speedup.
NET_FLOOR_FRACTION = 0.05


def median(values):
    return float(np.median(np.asarray(values, dtype=float)))


def net_median(times, overhead_times=None):
    """median(times) less median(overhead_times) (when given), not below the
    floor described at NET_FLOOR_FRACTION."""
    raw = median(times)
    if overhead_times is None:
        return raw
    return float(_net(raw, median(overhead_times), overhead_jitter(overhead_times)))


def _net(raw_medians, overhead_medians, jitter):
    return np.maximum(np.maximum(raw_medians - overhead_medians, NET_FLOOR_FRACTION * raw_medians), jitter)


def overhead_jitter(overhead_times):
    """Median absolute deviation of the overhead timings."""
    overhead = np.asarray(overhead_times, dtype=float)
    return float(np.median(np.abs(overhead - np.median(overhead))))


def speedup(reference_times, submission_times, overhead_times=None):
    """How many times faster the submission is: the ratio of the net medians
    (plain median(reference) / median(submission) without overhead_times)."""
    return net_median(reference_times, overhead_times) / net_median(submission_times, overhead_times)


def speedup_interval(reference_times, submission_times, overhead_times=None, confidence=0.95):
    """Percentile-bootstrap interval for the speedup.

    Resamples whole pairs (with their echo, when overhead_times has one per
    pair) and recomputes the same statistic as the point estimate (ratio of
    net medians), so the interval is about the number shown, keeps the
    pairing and includes the uncertainty of the overhead. Returns (low, high),
    or None with fewer than 3 pairs.
    """
    reference = np.asarray(reference_times, dtype=float)
    submission = np.asarray(submission_times, dtype=float)
    if reference.size != submission.size:
        raise ValueError("timings must come in pairs")
    overhead = None if overhead_times is None else np.asarray(overhead_times, dtype=float)
    if overhead is not None and overhead.size != reference.size:
        raise ValueError("one overhead timing per pair")
    if reference.size < 3:
        return None
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, reference.size, size=(BOOTSTRAP_RESAMPLES, reference.size))
    reference_medians = np.median(reference[picks], axis=1)
    submission_medians = np.median(submission[picks], axis=1)
    if overhead is not None:
        overhead_medians = np.median(overhead[picks], axis=1)
        jitter = overhead_jitter(overhead)
        reference_medians = _net(reference_medians, overhead_medians, jitter)
        submission_medians = _net(submission_medians, overhead_medians, jitter)
    ratios = reference_medians / submission_medians
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ratios, [tail, 100.0 - tail])
    return float(low), float(high)


def scaling_exponent(sizes, times):
    """Least-squares slope of log(time) against log(size): ~1 for linear work,
    ~2 for quadratic. None when fewer than two distinct positive sizes."""
    points = [(s, t) for s, t in zip(sizes, times) if s > 0 and t > 0]
    if len({s for s, _ in points}) < 2:
        return None
    x = np.log([s for s, _ in points])
    y = np.log([t for _, t in points])
    slope, _ = np.polyfit(x, y, 1)
    return float(slope)
