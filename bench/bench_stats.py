"""The small statistics the benchmarks report: medians, spreads, percentiles and
a seeded bootstrap interval."""

import random
import statistics

BOOTSTRAP_SEED = 20240917


def median(values):
    return statistics.median(values) if values else None


def spread(values):
    """(max - min) / median."""
    return (max(values) - min(values)) / statistics.median(values) if len(values) > 1 else None


def coefficient_of_variation(values):
    return statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else None


def bootstrap_median_interval(values, confidence=0.95, resamples=4000):
    """Percentile-bootstrap interval for the median of `values` (the gradings), seeded."""
    if len(values) < 3:
        return None
    rng = random.Random(BOOTSTRAP_SEED)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    tail = (1 - confidence) / 2
    return [medians[int(tail * resamples)], medians[int((1 - tail) * resamples) - 1]]


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def rounded(value, digits=4):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [rounded(item, digits) for item in value]
    return round(float(value), digits)
