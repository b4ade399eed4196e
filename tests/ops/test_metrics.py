"""/metrics: protected, and exporting Hotpath's state from what every process shares."""

import time
from datetime import timedelta

import pytest
from celery import signals as celery_signals
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from ops import heartbeat
from ops.grader_models import gpu_workers_module, submission_model

pytestmark = pytest.mark.django_db

TOKEN = "a-metrics-token-of-some-length"


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape(client, **headers):
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}", **headers)
    assert response.status_code == 200, response.content
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


def test_metrics_are_refused_without_the_token_or_staff(client, token, candidate, staff_author):
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong-token-of-some-length").status_code == 403
    client.force_login(candidate)
    assert client.get("/metrics").status_code == 404
    client.force_login(staff_author)
    assert client.get("/metrics").status_code == 200


def test_no_token_set_means_no_scraper_gets_in(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403
    assert client.get("/metrics").status_code == 404


def test_a_scrape_with_the_token_ignores_allowed_hosts_and_the_https_redirect(client, settings, token):
    settings.ALLOWED_HOSTS = ["hotpath.example.com"]
    settings.SECURE_SSL_REDIRECT = True
    samples = scrape(client, HTTP_HOST="web:8000")
    assert value(samples, "hotpath_metrics_section_up", section="queues") == 1


def make_submission(version, user, purpose="practice", status="queued", verdict="", age_s=0, wall_s=None):
    Submission = submission_model()
    submission = Submission.objects.create(
        user=user, exercise=version, code="x", purpose=purpose, status=status, verdict=verdict
    )
    created = timezone.now() - timedelta(seconds=age_s)
    fields = {"created_at": created}
    if wall_s is not None:
        fields.update(started_at=created, finished_at=created + timedelta(seconds=wall_s))
    Submission.objects.filter(pk=submission.pk).update(**fields)
    return submission


def test_queues_gradings_and_wall_time_come_from_the_submission_rows(client, token, candidate, exercise_version):
    make_submission(exercise_version, candidate, age_s=90)
    make_submission(exercise_version, candidate, age_s=30)
    make_submission(exercise_version, candidate, purpose="check", age_s=5)
    make_submission(exercise_version, candidate, status="running", age_s=10)
    make_submission(exercise_version, candidate, status="done", verdict="accepted", wall_s=12)
    make_submission(exercise_version, candidate, status="done", verdict="accepted", wall_s=40)
    make_submission(exercise_version, candidate, status="done", verdict="wrong_answer", wall_s=3)
    make_submission(exercise_version, candidate, purpose="check", status="done", verdict="accepted", wall_s=1.5)
    samples = scrape(client)

    assert value(samples, "hotpath_queue_depth", queue="cpu") == 2
    assert value(samples, "hotpath_queue_depth", queue="check") == 1
    assert value(samples, "hotpath_queue_depth", queue="gpu") == 0
    assert value(samples, "hotpath_queue_running", queue="cpu") == 1
    assert 89 <= value(samples, "hotpath_queue_oldest_age_seconds", queue="cpu") < 120
    assert 4 <= value(samples, "hotpath_queue_oldest_age_seconds", queue="check") < 30
    assert value(samples, "hotpath_queue_oldest_age_seconds", queue="gpu") == 0

    assert value(samples, "hotpath_gradings_total", queue="cpu", verdict="accepted") == 2
    assert value(samples, "hotpath_gradings_total", queue="cpu", verdict="wrong_answer") == 1
    assert value(samples, "hotpath_gradings_total", queue="check", verdict="accepted") == 1

    bucket = "hotpath_grading_duration_seconds_bucket"
    assert value(samples, bucket, queue="cpu", le="2.0") == 0
    assert value(samples, bucket, queue="cpu", le="5.0") == 1
    assert value(samples, bucket, queue="cpu", le="20.0") == 2
    assert value(samples, bucket, queue="cpu", le="60.0") == 3
    assert value(samples, bucket, queue="cpu", le="+Inf") == 3
    assert value(samples, "hotpath_grading_duration_seconds_count", queue="cpu") == 3
    assert value(samples, "hotpath_grading_duration_seconds_sum", queue="cpu") == pytest.approx(55, abs=0.01)
    assert value(samples, bucket, queue="check", le="2.0") == 1


def test_the_web_requests_are_counted_per_view(client, token, candidate):
    client.get("/leaderboards/")
    samples = scrape(client)
    counted = [key for key in samples if key[0] == "django_http_requests_total_by_view_transport_method_total"]
    assert any(("view", "leaderboards:index") in labels for _, labels in counted), counted
    assert any(key[0] == "django_http_requests_latency_seconds_by_view_method_bucket" for key in samples)


def test_worker_heartbeats_and_the_gpu_worker_are_exported(client, token):
    now = time.time()
    heartbeat.beat("celery@cpu-1", ["cpu", "check"], now=now)
    heartbeat.beat("gpu@gpu-1", ["gpu"], now=now - 300)  # went quiet five minutes ago
    gpu_workers_module().record_gpu_heartbeat({"gpu": "H200", "host": "gpu-1"})
    samples = scrape(client)
    last_beat = value(samples, "hotpath_worker_heartbeat_timestamp_seconds", worker="celery@cpu-1", queues="check,cpu")
    assert last_beat == pytest.approx(now)
    assert value(samples, "hotpath_workers_up", queue="cpu") == 1
    assert value(samples, "hotpath_workers_up", queue="check") == 1
    assert value(samples, "hotpath_workers_up", queue="gpu") == 0
    assert value(samples, "hotpath_worker_disk_free_bytes", worker="celery@cpu-1") > 0
    assert value(samples, "hotpath_gpu_worker_online") == 1
    gpu_workers_module().clear_gpu_heartbeat()


class FakeTask:
    def __init__(self, name):
        self.name = name


def test_failures_counted_in_workers_reach_the_scrape(client, token, candidate, exercise_version):
    from grader.errors import PlatformError
    from ops import signals

    mail = FakeTask("mail.send")
    celery_signals.task_retry.send(sender=mail, request=None, reason=OSError("refused"), einfo=None)
    celery_signals.task_retry.send(sender=mail, request=None, reason=OSError("refused"), einfo=None)
    celery_signals.task_failure.send(sender=mail, task_id="1", exception=OSError("refused"))
    grading = FakeTask("grader.grade_submission")
    celery_signals.task_retry.send(
        sender=grading, request=None, reason=PlatformError("sandbox.start_failed", "no engine"), einfo=None
    )
    gave_up = make_submission(exercise_version, candidate, status="done", verdict="internal_error")
    gave_up.platform_error = "[sandbox.create_failed] could not create the sandbox container"
    signals.on_submission_graded(submission=gave_up)

    samples = scrape(client)

    assert value(samples, "hotpath_email_failures_total", outcome="retried") == 2
    assert value(samples, "hotpath_email_failures_total", outcome="failed") == 1
    assert value(samples, "hotpath_sandbox_start_failures_total", error_id="sandbox.start_failed") == 1
    assert value(samples, "hotpath_sandbox_start_failures_total", error_id="sandbox.create_failed") == 1
    assert value(samples, "hotpath_platform_errors_total", error_id="sandbox.start_failed", outcome="retried") == 1
    assert value(samples, "hotpath_platform_errors_total", error_id="sandbox.create_failed", outcome="gave_up") == 1


def test_the_harness_overhead_of_each_graded_size_reaches_the_histogram(client, token, candidate, exercise_version):
    """The report's transfer_overhead_s per size, sent with submission_graded in the worker, is on the scrape."""
    from submissions.signals import submission_graded

    graded = make_submission(exercise_version, candidate, status="done", verdict="accepted", wall_s=30)
    graded.report = {
        "sizes": [
            {"size": 10, "transfer_overhead_s": 0.0009},
            {"size": 100, "transfer_overhead_s": 0.0018},
            {"size": 1000, "transfer_overhead_s": 0.057},
        ]
    }
    checked = make_submission(exercise_version, candidate, purpose="check", status="done", verdict="accepted")
    checked.report = {"sizes": [{"size": 10, "transfer_overhead_s": None}]}
    for submission in (graded, checked):
        submission_graded.send(sender=type(submission), submission=submission)

    samples = scrape(client)

    name = "hotpath_harness_overhead_seconds"
    assert value(samples, f"{name}_bucket", queue="cpu", le="0.0005") == 0
    assert value(samples, f"{name}_bucket", queue="cpu", le="0.001") == 1
    assert value(samples, f"{name}_bucket", queue="cpu", le="0.0025") == 2
    assert value(samples, f"{name}_bucket", queue="cpu", le="0.05") == 2
    assert value(samples, f"{name}_bucket", queue="cpu", le="0.1") == 3
    assert value(samples, f"{name}_bucket", queue="cpu", le="+Inf") == 3
    assert value(samples, f"{name}_count", queue="cpu") == 3
    assert value(samples, f"{name}_sum", queue="cpu") == pytest.approx(0.0597)
    assert value(samples, f"{name}_count", queue="check") is None


def test_a_broken_source_leaves_its_section_out_but_the_rest_answers(client, token, monkeypatch):
    from ops import metrics

    def broken(now):
        raise ConnectionError("redis is down")

    monkeypatch.setitem(metrics.SECTIONS, "workers", broken)
    samples = scrape(client)
    assert value(samples, "hotpath_metrics_section_up", section="workers") == 0
    assert value(samples, "hotpath_metrics_section_up", section="queues") == 1
    assert value(samples, "hotpath_queue_depth", queue="cpu") == 0


def test_the_dashboard_and_alerts_use_only_metrics_that_exist(client, token, candidate, exercise_version):
    """deploy/: every hotpath_ and django_ metric the Grafana dashboard and the alert rules name is exported."""
    import json
    import re
    from pathlib import Path

    import yaml
    from django.conf import settings

    from ops import signals

    deploy = Path(settings.BASE_DIR) / "deploy"
    dashboard = json.loads((deploy / "grafana" / "hotpath-dashboard.json").read_text())
    rules = yaml.safe_load((deploy / "prometheus" / "alerts.yml").read_text())["groups"][0]["rules"]
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    expressions += [rule["expr"] for rule in rules]
    named = set(re.findall(r"\b((?:hotpath|django)_[a-z_]+)", " ".join(expressions)))

    graded = make_submission(exercise_version, candidate, status="done", verdict="accepted", wall_s=5)
    graded.report = {"sizes": [{"size": 10, "transfer_overhead_s": 0.001}]}
    signals.on_submission_graded(submission=graded)
    heartbeat.beat("celery@cpu-1", ["cpu"])
    signals.count_platform_error("sandbox.start_failed", "gave_up")
    signals.on_task_failure(sender=FakeTask("mail.send"))
    client.get("/")
    exported = {name for name, _ in scrape(client)}
    assert named and not named - exported, named - exported
