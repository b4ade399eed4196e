"""Signed webhooks: an organisation's endpoints receive its sitting events.

Events (models.WebhookEvent): sitting.started, sitting.submitted (the sitting closed:
submitted by the candidate or time ran out), sitting.graded (the sitting is closed and
every grading of it is done; raised once, models.CandidateSession.graded_event_at).

Each event makes one WebhookDelivery row per endpoint, queued once the transaction
commits; the task `teams.deliver_webhook` POSTs it (attempt_delivery). The body is JSON;
the header `X-Hotpath-Signature: t=<unix seconds>,v1=<hex>` holds the HMAC-SHA256, keyed
with the endpoint's secret, of `<t>.<body>` (signature_of). A delivery that does not get a
2xx answer is tried again after BACKOFF_BASE_S · 2^(tries-1) seconds (at most
BACKOFF_MAX_S), up to MAX_ATTEMPTS tries, then marked failed. Redirects are not followed.

Server-side request forgery: an endpoint must be https to a public address. Private,
loopback, link-local and reserved addresses are refused when the endpoint is registered
and again at every try (a name may come to resolve elsewhere). Only with
settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK (DEBUG, tests) may it be http(s) to a loopback address.
"""

import enum
import hashlib
import hmac
import ipaddress
import json
import secrets
import socket
import time
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from submissions.models import Purpose
from submissions.states import Status

from .models import (
    AuditAction,
    CandidateSession,
    DeliveryStatus,
    SessionSubmission,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from .services import audit
from .services.errors import TeamsError
from .signals import webhook_delivery_attempted

SIGNATURE_HEADER = "X-Hotpath-Signature"
EVENT_HEADER = "X-Hotpath-Event"
DELIVERY_HEADER = "X-Hotpath-Delivery"
MAX_ENDPOINTS = 10
MAX_ATTEMPTS = 6
BACKOFF_BASE_S = 30
BACKOFF_MAX_S = 3600
#: Seconds to connect and to read the answer, per try.
TIMEOUT_S = 10


class Outcome(enum.StrEnum):
    DELIVERED = "delivered"
    RETRIED = "retried"
    FAILED = "failed"


# ---- Endpoints ------------------------------------------------------------------------------


def _refused_address(address):
    """Why an IP address may not receive webhooks, or '' when it may."""
    ip = ipaddress.ip_address(address)
    if ip.is_loopback:
        return "" if settings.TEAMS_WEBHOOK_ALLOW_LOOPBACK else "a loopback address"
    if not ip.is_global or ip.is_multicast:
        return "a private or reserved address"
    return ""


def check_url(url):
    """Raise TeamsError saying why `url` may not receive webhooks (module docstring)."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise TeamsError("Enter an https:// URL.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)}
    except (OSError, ValueError):
        raise TeamsError(f"{parts.hostname} could not be resolved.") from None
    for address in sorted(addresses):
        reason = _refused_address(address)
        if reason:
            raise TeamsError(f"{parts.hostname} resolves to {address}, {reason}: webhooks go to public addresses only.")
    loopback = all(ipaddress.ip_address(address).is_loopback for address in addresses)
    if parts.scheme == "http" and not loopback:
        raise TeamsError("Enter an https:// URL: webhooks are not sent over plain http.")


@transaction.atomic
def register_endpoint(organisation, url, created_by):
    """Add an https endpoint for `organisation`'s events, made by the user `created_by`."""
    url = (url or "").strip()
    check_url(url)
    if organisation.webhook_endpoints.count() >= MAX_ENDPOINTS:
        raise TeamsError(f"{organisation} has {MAX_ENDPOINTS} webhook endpoints; remove one first.")
    if organisation.webhook_endpoints.filter(url=url).exists():
        raise TeamsError(f"{url} is already registered.")
    endpoint = WebhookEndpoint.objects.create(
        organisation=organisation, url=url, secret=secrets.token_hex(32), created_by=created_by
    )
    audit.record(organisation, created_by, AuditAction.WEBHOOK_ADDED, endpoint, target_label=url)
    return endpoint


@transaction.atomic
def remove_endpoint(endpoint, actor):
    """Remove an endpoint with its delivery log."""
    audit.record(endpoint.organisation, actor, AuditAction.WEBHOOK_REMOVED, endpoint, target_label=endpoint.url)
    endpoint.delete()


# ---- Events ---------------------------------------------------------------------------------


def sitting_payload(session):
    return {
        "sitting": session.pk,
        "assessment": {"id": session.assessment_id, "title": session.assessment.title},
        "candidate_email": session.invitation.email,
        "started_at": session.started_at.isoformat(),
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
        "finish_reason": session.finish_reason,
    }


def emit(organisation, event, data):
    """One pending delivery per endpoint of the organisation, queued on commit; returns them."""
    created = timezone.now()
    deliveries = [
        WebhookDelivery.objects.create(
            endpoint=endpoint, event=event, payload={"event": event, "created_at": created.isoformat(), "data": data}
        )
        for endpoint in organisation.webhook_endpoints.all()
    ]
    for delivery in deliveries:
        _queue(delivery.pk)
    return deliveries


def _queue(delivery_id, countdown=0):
    from .tasks import deliver_webhook  # tasks wraps this module

    transaction.on_commit(lambda: deliver_webhook.apply_async((delivery_id,), countdown=countdown))


def sitting_started(session):
    """Raise sitting.started; a practice sitting raises no event at all."""
    if session.is_practice:
        return
    emit(session.assessment.organisation, WebhookEvent.SITTING_STARTED, sitting_payload(session))


def sitting_finished(session):
    if session.is_practice:
        return
    emit(session.assessment.organisation, WebhookEvent.SITTING_SUBMITTED, sitting_payload(session))
    graded_if_done(session)


def _gradings_pending(session):
    return SessionSubmission.objects.filter(
        session=session, submission__purpose=Purpose.ASSESSMENT, submission__status__in=Status.ACTIVE
    ).exists()


def graded_if_done(session):
    """Raise sitting.graded once the sitting is closed and none of its gradings is pending."""
    if session.is_practice or not session.is_finished or _gradings_pending(session):
        return
    unsent = CandidateSession.objects.filter(pk=session.pk, graded_event_at__isnull=True)
    organisation = session.assessment.organisation
    # The payload holds the full report, read against the whole assessment: built only to be sent.
    if unsent.update(graded_event_at=timezone.now()) and organisation.webhook_endpoints.exists():
        emit(organisation, WebhookEvent.SITTING_GRADED, graded_payload(session))


def graded_payload(session):
    """sitting.graded's data: the sitting, its score (0..1) and each question's status and
    score, `report`, the team API's path of the sitting's report, and `full_report`, that
    report's body as GET on the path returns it (teams.report_payload), as it stands when
    the event is raised."""
    from .report_payload import sitting_report  # reports reads sittings, whose services raise these events

    full_report = sitting_report(session)
    return {
        **sitting_payload(session),
        "score": full_report["score"],
        "minutes_used": full_report["minutes_used"],
        "results": [
            {
                "number": result["number"],
                "question": result["question"]["slug"],
                "status": result["status"],
                "score": result["score"],
            }
            for result in full_report["results"]
        ],
        "report": f"/api/v1/team/sittings/{session.pk}/",
        "full_report": full_report,
    }


def on_submission_graded(submission=None, **kwargs):
    """submissions.signals.submission_graded: the last grading of a closed sitting raises sitting.graded."""
    if submission is None or submission.purpose != Purpose.ASSESSMENT:
        return
    link = (
        SessionSubmission.objects.filter(submission=submission)
        .select_related("session__assessment__organisation", "session__invitation")
        .first()
    )
    if link is not None:
        graded_if_done(link.session)


# ---- Delivery -------------------------------------------------------------------------------


def signature_of(secret, timestamp, body):
    """Hex HMAC-SHA256 of `<timestamp>.<body>` keyed with the endpoint's secret (body: bytes)."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def backoff(attempts):
    """Seconds before the next try, after `attempts` failed tries."""
    return min(BACKOFF_BASE_S * 2 ** (attempts - 1), BACKOFF_MAX_S)


def _post(delivery):
    """(response code or None, error text) of one try."""
    endpoint = delivery.endpoint
    body = json.dumps({**delivery.payload, "delivery": delivery.pk}, sort_keys=True).encode()
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Hotpath-Webhooks/1",
        EVENT_HEADER: delivery.event,
        DELIVERY_HEADER: str(delivery.pk),
        SIGNATURE_HEADER: f"t={timestamp},v1={signature_of(endpoint.secret, timestamp, body)}",
    }
    try:
        check_url(endpoint.url)
        response = requests.post(endpoint.url, data=body, headers=headers, timeout=TIMEOUT_S, allow_redirects=False)
    except TeamsError as error:
        return None, error.message
    except requests.RequestException as error:
        return None, f"{type(error).__name__}: {error}"
    if 200 <= response.status_code < 300:
        return response.status_code, ""
    return response.status_code, f"HTTP {response.status_code}"


def attempt_delivery(delivery_id):
    """Try one pending delivery. Returns the seconds until the next try when one is due, else None."""
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return None
    code, error = _post(delivery)
    now = timezone.now()
    delivery.attempts += 1
    delivery.response_code = code
    delivery.last_error = error[:300]
    delay = None
    if not error:
        delivery.status, delivery.delivered_at, delivery.next_attempt_at = DeliveryStatus.DELIVERED, now, None
        outcome = Outcome.DELIVERED
    elif delivery.attempts >= MAX_ATTEMPTS:
        delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, None
        outcome = Outcome.FAILED
    else:
        delay = backoff(delivery.attempts)
        delivery.next_attempt_at = now + timedelta(seconds=delay)
        outcome = Outcome.RETRIED
    delivery.save(
        update_fields=["status", "attempts", "response_code", "last_error", "next_attempt_at", "delivered_at"]
    )
    webhook_delivery_attempted.send(sender=WebhookDelivery, delivery=delivery, outcome=outcome)
    return delay


def send_again(delivery):
    """A new delivery of the same event to the same endpoint, queued on commit (the old row stays in the log)."""
    again = WebhookDelivery.objects.create(endpoint=delivery.endpoint, event=delivery.event, payload=delivery.payload)
    _queue(again.pk)
    return again
