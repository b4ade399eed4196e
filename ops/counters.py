"""Event counters kept in the shared cache (Redis in production), not in a process's memory.

Gradings and mail run in Celery workers, possibly on other machines, and the web
process that Prometheus scrapes never sees those events. Each worker adds to a
cache key instead, and the scrape reads every key back (ops.metrics). Redis's INCR
is atomic; the file cache of `make run` is not, which is close enough for a demo.
If Redis loses its data the counters start again from zero, which Prometheus's
rate() reads as a counter reset.

A histogram is kept the same way (observe): a counter per bucket, one for the count and
one for the sum in microseconds (the cache adds integers only), read back by read_histogram.

A counter's label values are not known in advance (a new sandbox error id, say), so
a registry key lists every (metric, labels) pair seen. Counting never raises: a
cache that is down must not fail a grading or a mail.
"""

import json
import logging

from django.core.cache import cache

logger = logging.getLogger(__name__)

PREFIX = "ops:counter:"
REGISTRY_KEY = "ops:counters"


def _key(metric, labels):
    return PREFIX + metric + ":" + json.dumps(labels, sort_keys=True, separators=(",", ":"))


def increment(metric, **labels):
    labels = {name: str(value) for name, value in labels.items()}
    key = _key(metric, labels)
    try:
        cache.add(key, 0, timeout=None)
        cache.incr(key)
        registry = cache.get(REGISTRY_KEY) or []
        if key not in registry:
            cache.set(REGISTRY_KEY, [*registry, key], timeout=None)
    except Exception:  # noqa: BLE001 - a metric must never break the work it counts
        logger.warning("could not count %s %s in the cache", metric, labels, exc_info=True)


def observe(metric, value, buckets, **labels):
    """Adds `value` to the histogram `metric` (upper bounds `buckets`, ascending): every bucket
    at or above it, +Inf, the count and the sum. Never raises, as increment."""
    for bound in buckets:
        if value <= bound:
            increment(f"{metric}_bucket", le=repr(float(bound)), **labels)
    increment(f"{metric}_bucket", le="+Inf", **labels)
    increment(f"{metric}_count", **labels)
    key = _key(f"{metric}_sum_us", {name: str(label) for name, label in labels.items()})
    try:
        cache.add(key, 0, timeout=None)
        cache.incr(key, round(value * 1e6))
        registry = cache.get(REGISTRY_KEY) or []
        if key not in registry:
            cache.set(REGISTRY_KEY, [*registry, key], timeout=None)
    except Exception:  # noqa: BLE001 - a metric must never break the work it measures
        logger.warning("could not add to %s %s in the cache", metric, labels, exc_info=True)


def read_histogram(metric, buckets, label_names):
    """[(label values, [(le, cumulative count)...] ending with +Inf, sum in seconds)] per label set
    observed so far, for prometheus_client's HistogramMetricFamily."""
    sums = {tuple(labels.get(name, "") for name in label_names): value for labels, value in read(f"{metric}_sum_us")}
    counts = {}
    for labels, value in read(f"{metric}_bucket"):
        counts[(tuple(labels.get(name, "") for name in label_names), labels["le"])] = value
    found = []
    for label_values, total_us in sorted(sums.items()):
        bounds = [repr(float(bound)) for bound in buckets] + ["+Inf"]
        found.append(
            (
                list(label_values),
                [(bound, counts.get((label_values, bound), 0.0)) for bound in bounds],
                total_us / 1e6,
            )
        )
    return found


def read(metric):
    """[(labels, value)] for every label set of `metric` counted so far."""
    keys = [key for key in cache.get(REGISTRY_KEY) or [] if key.startswith(PREFIX + metric + ":")]
    values = cache.get_many(keys)
    found = []
    for key in keys:
        if key in values:
            found.append((json.loads(key[len(PREFIX + metric) + 1 :]), float(values[key])))
    return found
