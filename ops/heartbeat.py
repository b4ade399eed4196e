"""Every Celery worker says it is alive in the shared cache, every INTERVAL_S seconds.

Started by the worker_ready signal (ops.signals) in each worker's main process, the
GPU worker's included (`manage.py gpu_worker` runs a Celery worker too, and keeps its
own "GPU online" key for the pages besides). Readiness (ops.health) asks whether a
worker for a queue was seen in the last FRESH_S seconds; the metrics (ops.metrics)
export each worker's last beat, the queues it takes and the free disk where it grades.
"""

import logging
import shutil
import socket
import tempfile
import threading
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)

PREFIX = "ops:worker:"
REGISTRY_KEY = "ops:workers"
INTERVAL_S = 15
#: A worker counts as present when its last beat is this recent.
FRESH_S = 60
#: How long a silent worker's last beat is kept (and exported), so an operator sees it went quiet.
KEEP_S = 24 * 3600


def disk_free_bytes(path=None):
    try:
        return shutil.disk_usage(path or tempfile.gettempdir()).free
    except OSError:
        return None


def beat(name, queues, now=None):
    """Record one heartbeat of worker `name` taking `queues`."""
    now = time.time() if now is None else now
    data = {
        "name": name,
        "queues": sorted(queues),
        "host": socket.gethostname(),
        "at": now,
        "disk_free_bytes": disk_free_bytes(),
    }
    cache.set(PREFIX + name, data, timeout=KEEP_S)
    registry = cache.get(REGISTRY_KEY) or {}
    stale = [other for other, seen in registry.items() if now - seen > KEEP_S]
    if name not in registry or stale or now - registry[name] > KEEP_S / 2:
        for other in stale:
            registry.pop(other)
        registry[name] = now
        cache.set(REGISTRY_KEY, registry, timeout=None)


def workers():
    """The last beat of every worker seen within KEEP_S, oldest name first."""
    registry = cache.get(REGISTRY_KEY) or {}
    found = cache.get_many([PREFIX + name for name in registry])
    return sorted(found.values(), key=lambda data: data["name"])


def fresh(queue, within=FRESH_S, now=None):
    """The workers taking `queue` whose last beat is at most `within` seconds old."""
    now = time.time() if now is None else now
    return [data for data in workers() if queue in data["queues"] and now - data["at"] <= within]


def seen(name, within=FRESH_S, now=None):
    now = time.time() if now is None else now
    data = cache.get(PREFIX + name)
    return data is not None and now - data["at"] <= within


class HeartbeatThread(threading.Thread):
    def __init__(self, name, queues):
        super().__init__(name="ops-heartbeat", daemon=True)
        self.worker_name = name
        self.queues = list(queues)
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            try:
                beat(self.worker_name, self.queues)
            except Exception:  # noqa: BLE001 - the cache may be down for a while; keep beating
                logger.warning("worker heartbeat failed", exc_info=True)
            self.stopped.wait(INTERVAL_S)

    def stop(self):
        self.stopped.set()
