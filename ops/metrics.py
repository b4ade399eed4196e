"""GET /metrics: Prometheus's text format, for a scraper holding METRICS_TOKEN or a staff user.

Two kinds of metric share the page:

- the web's own, per process (django-prometheus: requests, latency and responses per view
  and method, exceptions, database and cache calls). Under gunicorn with several workers,
  PROMETHEUS_MULTIPROC_DIR makes them add up over the workers (ops/gunicorn_conf.py);
- Hotpath's, the same whichever web process answers, computed when scraped from what every
  process shares: the Submission rows (queue depth, the oldest waiting submission's age,
  gradings per verdict, grading wall time) and the cache (worker heartbeats, the GPU
  worker's, sandbox start failures, platform errors and mail failures counted by the
  workers, and the harness's own overhead per timed call, observed by them, ops.counters).
  Nothing a Celery worker counts lives in a web process's memory.

Access (safe by default): with METRICS_TOKEN set, `Authorization: Bearer <token>` is answered
by the first middleware, before ALLOWED_HOSTS and the HTTPS redirect (Prometheus scrapes by
address over the internal network); without the header, /metrics is an ordinary page for
signed-in staff, and a 404 for everyone else. With no token set, only staff see it.
"""

import hmac
import logging
import os
import time
from datetime import timedelta

from django.conf import settings
from django.db.models import Case, CharField, Count, DurationField, ExpressionWrapper, F, Min, Q, Sum, Value, When
from django.http import Http404, HttpResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.utils import floatToGoString

from . import counters, heartbeat
from .grader_models import QUEUES, gpu_workers_module, models_module, submission_model

logger = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
#: The cache histogram (ops.counters.observe) the workers add each graded size's overhead to.
HARNESS_OVERHEAD = "harness_overhead"
#: Grading wall time buckets (seconds): quick checks take seconds, full gradings up to minutes.
DURATION_BUCKETS = (1, 2, 5, 10, 20, 30, 60, 120, 180, 300, 600)
#: Harness overhead buckets (seconds): the report's transfer_overhead_s, the harness's own cost of
#: one timed call (passing the input in and the answer back), from tens of microseconds for small
#: inputs to tens of milliseconds for arrays of megabytes.
OVERHEAD_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1)
#: One scrape's result is reused for this long, so several scrapers cost one set of queries.
REUSE_S = 5


def _queue_expression():
    """The queue of each row in SQL, as models.queue_for decides it in Python."""
    check_purposes = list(models_module().CHECK_PURPOSES)
    return Case(
        When(exercise__spec__target="gpu", then=Value("gpu")),
        When(purpose__in=check_purposes, then=Value("check")),
        default=Value("cpu"),
        output_field=CharField(),
    )


def queue_metrics(now):
    Submission = submission_model()
    depth = GaugeMetricFamily("hotpath_queue_depth", "Submissions waiting to be graded, per queue.", labels=["queue"])
    running = GaugeMetricFamily("hotpath_queue_running", "Submissions being graded now, per queue.", labels=["queue"])
    oldest = GaugeMetricFamily(
        "hotpath_queue_oldest_age_seconds",
        "Age of the oldest submission waiting in each queue (0 when none waits).",
        labels=["queue"],
    )
    rows = (
        Submission.objects.filter(status__in=["queued", "running"])
        .annotate(queue=_queue_expression())
        .values("queue", "status")
        .annotate(n=Count("pk"), first=Min("created_at"))
    )
    found = {(row["queue"], row["status"]): row for row in rows}
    for queue in QUEUES:
        waiting = found.get((queue, "queued"))
        depth.add_metric([queue], waiting["n"] if waiting else 0)
        running.add_metric([queue], found[(queue, "running")]["n"] if (queue, "running") in found else 0)
        oldest.add_metric([queue], max(0.0, (now - waiting["first"]).total_seconds()) if waiting else 0.0)
    return [depth, running, oldest]


def grading_metrics():
    Submission = submission_model()
    done = Submission.objects.filter(status="done").annotate(queue=_queue_expression())
    verdicts = CounterMetricFamily(
        "hotpath_gradings", "Submissions graded, per queue and verdict.", labels=["queue", "verdict"]
    )
    for row in done.values("queue", "verdict").annotate(n=Count("pk")).order_by("queue", "verdict"):
        verdicts.add_metric([row["queue"], row["verdict"] or "none"], row["n"])

    wall = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    timed = done.filter(started_at__isnull=False, finished_at__isnull=False).annotate(wall=wall)
    aggregates = {f"le_{b}": Count("pk", filter=Q(wall__lte=timedelta(seconds=b))) for b in DURATION_BUCKETS}
    histogram = HistogramMetricFamily(
        "hotpath_grading_duration_seconds",
        "Wall time of each grading, from its worker claiming it to its result (last attempt).",
        labels=["queue"],
    )
    rows = {row["queue"]: row for row in timed.values("queue").annotate(n=Count("pk"), total=Sum("wall"), **aggregates)}
    for queue in QUEUES:
        row = rows.get(queue)
        buckets = [(floatToGoString(b), row[f"le_{b}"] if row else 0) for b in DURATION_BUCKETS]
        buckets.append(("+Inf", row["n"] if row else 0))
        total = row["total"] if row else None
        seconds = total.total_seconds() if isinstance(total, timedelta) else (total or 0) / 1e6
        histogram.add_metric([queue], buckets, max(0.0, seconds))
    return [verdicts, histogram]


def worker_metrics(now):
    beats = heartbeat.workers()
    last = GaugeMetricFamily(
        "hotpath_worker_heartbeat_timestamp_seconds",
        "Unix time of each Celery worker's last heartbeat (kept a day after it stops).",
        labels=["worker", "queues"],
    )
    disk = GaugeMetricFamily(
        "hotpath_worker_disk_free_bytes", "Free disk where each worker's sandbox writes its jobs.", labels=["worker"]
    )
    up = GaugeMetricFamily(
        "hotpath_workers_up",
        f"Workers taking each queue whose last heartbeat is under {heartbeat.FRESH_S} s old.",
        labels=["queue"],
    )
    for data in beats:
        last.add_metric([data["name"], ",".join(data["queues"])], data["at"])
        if data.get("disk_free_bytes") is not None:
            disk.add_metric([data["name"]], data["disk_free_bytes"])
    for queue in QUEUES:
        fresh = [data for data in beats if queue in data["queues"] and now - data["at"] <= heartbeat.FRESH_S]
        up.add_metric([queue], len(fresh))
    gpu = GaugeMetricFamily(
        "hotpath_gpu_worker_online", "1 while the GPU worker's own heartbeat (the one the pages read) is fresh."
    )
    gpu.add_metric([], 1 if gpu_workers_module().gpu_worker_online() else 0)
    return [last, disk, up, gpu]


def counter_metrics():
    families = []
    for metric, labels, help_text in (
        ("sandbox_start_failures", ["error_id"], "Gradings whose sandbox could not be started, per error id."),
        ("platform_errors", ["error_id", "outcome"], "Platform errors in gradings: retried, or given up on."),
        ("email_failures", ["outcome"], "Failed deliveries of task mail.send: retried, or failed for good."),
        ("webhook_deliveries", ["outcome"], "Tries of webhook deliveries: delivered, retried, or failed for good."),
    ):
        family = CounterMetricFamily(f"hotpath_{metric}", help_text, labels=labels)
        for label_values, value in counters.read(metric):
            family.add_metric([label_values.get(name, "") for name in labels], value)
        families.append(family)
    overhead = HistogramMetricFamily(
        "hotpath_harness_overhead_seconds",
        "The harness's own overhead per timed call (the report's transfer_overhead_s), one observation per "
        "timed input size of each graded submission.",
        labels=["queue"],
    )
    for label_values, buckets, total in counters.read_histogram(HARNESS_OVERHEAD, OVERHEAD_BUCKETS, ["queue"]):
        overhead.add_metric(label_values, buckets, total)
    families.append(overhead)
    return families


SECTIONS = {
    "queues": lambda now: queue_metrics(timezone.now()),
    "gradings": lambda now: grading_metrics(),
    "workers": worker_metrics,
    "counters": lambda now: counter_metrics(),
}


class HotpathCollector:
    """Hotpath's metrics, computed when scraped. A section that fails (the database or the
    cache is down) is left out and hotpath_metrics_section_up says which."""

    def __init__(self):
        self._cached_at = None
        self._cached = []

    def collect(self):
        if self._cached_at is not None and time.monotonic() - self._cached_at < REUSE_S:
            return iter(self._cached)
        families = []
        section_up = GaugeMetricFamily(
            "hotpath_metrics_section_up", "1 when the section could be read at this scrape.", labels=["section"]
        )
        now = time.time()
        for name, section in SECTIONS.items():
            try:
                families.extend(section(now))
                section_up.add_metric([name], 1)
            except Exception:  # noqa: BLE001 - one broken source must not hide the others
                logger.warning("metrics section %s failed", name, exc_info=True)
                section_up.add_metric([name], 0)
        families.append(section_up)
        self._cached, self._cached_at = families, time.monotonic()
        return iter(families)


HOTPATH_REGISTRY = CollectorRegistry(auto_describe=False)
COLLECTOR = HotpathCollector()
HOTPATH_REGISTRY.register(COLLECTOR)


def process_registry():
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def metrics_response():
    body = generate_latest(process_registry()) + generate_latest(HOTPATH_REGISTRY)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def bearer_token(request):
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def token_allowed(request):
    expected = settings.METRICS_TOKEN
    given = bearer_token(request)
    return bool(expected) and given is not None and hmac.compare_digest(given.encode(), expected.encode())


class MetricsTokenMiddleware:
    """Answers a scrape that carries the token before host validation and the HTTPS redirect."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == METRICS_PATH and request.method == "GET" and token_allowed(request):
            return metrics_response()
        return self.get_response(request)


def metrics_view(request):
    """/metrics for signed-in staff (a scraper with the token never gets here)."""
    user = request.user
    if user.is_authenticated and user.is_active and user.is_staff:
        return metrics_response()
    if bearer_token(request) is not None:
        return HttpResponse("wrong metrics token\n", status=403, content_type="text/plain")
    raise Http404
