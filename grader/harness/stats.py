"""Statistics over the timings: pure numpy and deterministic.

Timings come in pairs (one reference call and one submission call on the
same fresh input, back to back), so both the point estimate and the interval
use the pairs: a slow moment of the machine hits both members of a pair.
"""
import numpy as np

BOOTSTRAP_RESAMPLES = 4000
#: Fixed so the same timings always give the same interval.
BOOTSTRAP_SEED = 20240917


def median(values):
    return float(np.median(np.asarray(values, dtype=float)))


def speedup(reference_times, submission_times):
    """How many times faster the submission is: median(reference) / median(submission)."""
    return median(reference_times) / median(submission_times)


def speedup_interval(reference_times, submission_times, confidence=0.95):
    """Percentile-bootstrap interval for the speedup.

    Resamples whole pairs and recomputes the same statistic as the point
    estimate (ratio of medians), so the interval is about the number shown
    and keeps the pairing. Returns (low, high), or None with fewer than 3 pairs.
    """
    reference = np.asarray(reference_times, dtype=float)
    submission = np.asarray(submission_times, dtype=float)
    if reference.size != submission.size:
        raise ValueError("timings must come in pairs")
    if reference.size < 3:
        return None
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, reference.size, size=(BOOTSTRAP_RESAMPLES, reference.size))
    ratios = np.median(reference[picks], axis=1) / np.median(submission[picks], axis=1)
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
