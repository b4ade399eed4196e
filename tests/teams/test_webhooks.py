"""Signed webhooks (teams.webhooks): a real HTTP receiver on 127.0.0.1 checks each request's
signature; a failing one is retried with growing waits, then the delivery is marked failed."""

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ops import counters
from submissions.models import Purpose, Submission
from submissions.services import lifecycle
from submissions.signals import submission_graded
from submissions.states import Speed, Status, Verdict
from teams import services, tasks, webhooks
from teams.models import (
    DeliveryStatus,
    FinishReason,
    Role,
    SessionSubmission,
    SignalKind,
    SittingSignal,
    WebhookDelivery,
    WebhookEvent,
)
from teams.services import TeamsError, org_tokens


class Receiver:
    """An HTTP server on a free loopback port that records each POST and answers `status`."""

    def __init__(self):
        self.requests = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = True
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def queued_deliveries(monkeypatch):
    """Records the delivery task's apply_async calls as (delivery id, countdown) instead of queueing."""
    calls = []
    monkeypatch.setattr(
        tasks.deliver_webhook, "apply_async", lambda args, countdown=0: calls.append((args[0], countdown))
    )
    return calls


@pytest.fixture
def own_cache(settings, request):
    location = request.node.nodeid  # a cache of this test's own: the counters start from zero
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": location}}


def signed_correctly(secret, headers, body):
    fields = dict(part.split("=", 1) for part in headers[webhooks.SIGNATURE_HEADER].split(","))
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(fields["v1"], expected)


def deliver_all(queued):
    while queued:
        delivery_id, _countdown = queued.pop(0)
        webhooks.attempt_delivery(delivery_id)


def test_sitting_events_reach_the_receiver_signed(
    receiver, queued_deliveries, organisation, hiring_manager, invite, candidate, django_capture_on_commit_callbacks
):
    endpoint = webhooks.register_endpoint(organisation, receiver.url, hiring_manager)
    invitation, _ = invite(candidate.email)
    with django_capture_on_commit_callbacks(execute=True):
        session = services.start_session(invitation, candidate)
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_session(session, FinishReason.SUBMITTED)
    deliver_all(queued_deliveries)

    events = [json.loads(body)["event"] for _headers, body in receiver.requests]
    assert events == [WebhookEvent.SITTING_STARTED, WebhookEvent.SITTING_SUBMITTED, WebhookEvent.SITTING_GRADED]
    for headers, body in receiver.requests:
        assert signed_correctly(endpoint.secret, headers, body)
        assert not signed_correctly("another secret", headers, body)
    started = json.loads(receiver.requests[0][1])
    assert started["data"]["sitting"] == session.pk and started["data"]["candidate_email"] == candidate.email
    tries = set(WebhookDelivery.objects.values_list("status", "response_code", "attempts"))
    assert tries == {(DeliveryStatus.DELIVERED, 200, 1)}


def test_a_failing_receiver_is_retried_with_growing_waits_then_marked_failed(
    receiver, queued_deliveries, organisation, hiring_manager, session, own_cache, django_capture_on_commit_callbacks
):
    receiver.status = 500
    webhooks.register_endpoint(organisation, receiver.url, hiring_manager)
    with django_capture_on_commit_callbacks(execute=True):
        (delivery,) = webhooks.emit(organisation, WebhookEvent.SITTING_STARTED, webhooks.sitting_payload(session))
    waits = []
    while queued_deliveries:
        delivery_id, countdown = queued_deliveries.pop(0)
        waits.append(countdown)
        tasks.deliver_webhook(delivery_id)
        delivery.refresh_from_db()
        if delivery.status == DeliveryStatus.PENDING and delivery.attempts:
            assert delivery.next_attempt_at is not None and delivery.response_code == 500

    assert waits == [0] + [webhooks.backoff(n) for n in range(1, webhooks.MAX_ATTEMPTS)]
    assert waits[1:] == sorted(waits[1:]) and waits[2] > waits[1]
    assert len(receiver.requests) == webhooks.MAX_ATTEMPTS
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, webhooks.MAX_ATTEMPTS)
    assert delivery.next_attempt_at is None
    outcomes = {labels["outcome"]: value for labels, value in counters.read("webhook_deliveries")}
    assert outcomes == {"retried": webhooks.MAX_ATTEMPTS - 1, "failed": 1}


def test_graded_waits_for_the_sittings_last_grading_and_is_sent_once(
    organisation, hiring_manager, session, items, settings, queued_deliveries, django_capture_on_commit_callbacks
):
    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = True
    webhooks.register_endpoint(organisation, "http://127.0.0.1:9/hooks", hiring_manager)
    coding = items[2]
    grading = Submission.objects.create(
        user=session.candidate, exercise=coding.exercise_version, code="x = 1\n", purpose=Purpose.ASSESSMENT
    )
    SessionSubmission.objects.create(session=session, item=coding, submission=grading)
    services.finish_session(session, FinishReason.SUBMITTED)
    assert not WebhookDelivery.objects.filter(event=WebhookEvent.SITTING_GRADED).exists()

    grading.status, grading.verdict = "done", "accepted"
    grading.save()
    for _ in range(2):
        submission_graded.send(sender=Submission, submission=grading)
    graded = WebhookDelivery.objects.get(event=WebhookEvent.SITTING_GRADED).payload["data"]
    assert graded["report"] == f"/api/v1/team/sittings/{session.pk}/"
    assert [result["number"] for result in graded["results"]] == [1, 2, 3]
    assert 0 <= graded["score"] <= 1 and graded["candidate_email"] == session.invitation.email


COPIED = """import numpy as np


def transform(values):
    n = len(values)
    out = np.empty(n)
    last = None
    square = 0.0
    for i in range(n):
        v = values[i]
        if v != last:
            square = v * v
            last = v
        out[i] = square
    return out
"""


def test_graded_carries_the_report_the_team_api_returns_signed(
    client,
    receiver,
    queued_deliveries,
    organisation,
    hiring_manager,
    session,
    items,
    make_user,
    django_capture_on_commit_callbacks,
):
    endpoint = webhooks.register_endpoint(organisation, receiver.url, hiring_manager)
    coding = items[2]
    public = Submission.objects.create(
        user=make_user("author"),
        exercise=coding.exercise_version,
        code=COPIED,
        purpose=Purpose.PRACTICE,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    SittingSignal.objects.create(
        session=session, item=coding, kind=SignalKind.PASTE, at=session.started_at, data={"chars": len(COPIED)}
    )
    grading = services.submit_code(session, coding, COPIED)
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_session(session, FinishReason.SUBMITTED)
    report = {
        "verdict": Verdict.ACCEPTED,
        "speedup": 4.0,
        "speedup_ci": [3.5, 4.5],
        "message": "Correct.",
        "peak_memory_bytes": 2**20,
        "reference_peak_memory_bytes": 2**21,
        "hardware": "cpu",
    }
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.finish(grading, report)  # the sitting's last grading: sitting.graded
    deliver_all(queued_deliveries)

    ((headers, body),) = [
        request for request in receiver.requests if request[0][webhooks.EVENT_HEADER] == "sitting.graded"
    ]
    assert signed_correctly(endpoint.secret, headers, body)
    data = json.loads(body)["data"]
    token = org_tokens.create_token(organisation, "ATS", Role.REVIEWER, hiring_manager)[1]
    from_api = client.get(data["report"], HTTP_AUTHORIZATION=f"Bearer {token}")
    assert from_api.status_code == 200
    assert data["full_report"] == from_api.json()
    coding_figures = data["full_report"]["results"][2]["coding"]
    assert (coding_figures["speed"], coding_figures["speedup"], coding_figures["memory_vs_reference"]) == (
        Speed.FASTER,
        4.0,
        0.5,
    )
    assert [signal["kind"] for signal in data["full_report"]["integrity_signals"]] == ["paste", "submission"]
    assert [flag["other"] for flag in data["full_report"]["similarity_flags"]] == [
        f"public practice answer #{public.pk}"
    ]
    assert data["score"] == data["full_report"]["score"] and data["sitting"] == data["full_report"]["id"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "https://localhost/",
        "https://10.1.2.3/",
        "https://169.254.169.254/latest/",
        "https://[::1]/",
        "http://93.184.216.34/",
        "ftp://93.184.216.34/",
    ],
)
def test_private_loopback_and_plain_http_endpoints_are_refused(organisation, hiring_manager, settings, url):
    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = False
    with pytest.raises(TeamsError):
        webhooks.register_endpoint(organisation, url, hiring_manager)
    assert not organisation.webhook_endpoints.exists()


def test_owners_manage_endpoints_and_send_a_delivery_again_from_the_page(
    client, organisation, hiring_manager, reviewer, settings, queued_deliveries, django_capture_on_commit_callbacks
):
    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = False
    client.force_login(hiring_manager)
    page = client.get(f"/teams/org/{organisation.slug}/webhooks/")
    assert b"Private, loopback and link-local addresses are refused" in page.content
    refused = client.post(f"/teams/org/{organisation.slug}/webhooks/", {"url": "https://192.168.1.5/hook"})
    assert b"private or reserved address" in refused.content and not organisation.webhook_endpoints.exists()

    settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK = True
    client.post(f"/teams/org/{organisation.slug}/webhooks/", {"url": "http://127.0.0.1:9/hook"})
    (endpoint,) = organisation.webhook_endpoints.all()
    first = WebhookDelivery.objects.create(
        endpoint=endpoint,
        event=WebhookEvent.SITTING_STARTED,
        payload={"event": "x"},
        status=DeliveryStatus.FAILED,
        attempts=6,
        response_code=503,
    )
    log = client.get(f"/teams/org/{organisation.slug}/webhooks/")
    assert b"Failed" in log.content and b"503" in log.content
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/teams/org/{organisation.slug}/webhooks/deliveries/{first.pk}/send-again/")
    again = WebhookDelivery.objects.exclude(pk=first.pk).get()
    assert (again.status, again.payload, queued_deliveries) == (DeliveryStatus.PENDING, first.payload, [(again.pk, 0)])

    client.force_login(reviewer)
    assert client.get(f"/teams/org/{organisation.slug}/webhooks/").status_code == 403
    assert client.post(f"/teams/org/{organisation.slug}/webhooks/{endpoint.pk}/remove/").status_code == 403
