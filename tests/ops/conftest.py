import pytest


@pytest.fixture(autouse=True)
def fresh_metrics_and_beats():
    """Each test scrapes afresh (ops.metrics reuses a scrape for a few seconds) and starts
    with no worker heartbeats or counters left in the cache by another test or run."""
    from django.core.cache import cache

    from ops import counters, heartbeat, metrics

    def forget():
        metrics.COLLECTOR._cached_at = None
        workers = [heartbeat.PREFIX + name for name in cache.get(heartbeat.REGISTRY_KEY) or {}]
        counted = cache.get(counters.REGISTRY_KEY) or []
        cache.delete_many([*workers, *counted, counters.REGISTRY_KEY, heartbeat.REGISTRY_KEY])

    forget()
    yield
    metrics.COLLECTOR._cached_at = None  # the cache may still be a test's unreachable one: the next setup forgets
