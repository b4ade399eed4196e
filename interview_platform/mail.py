"""E-mail leaves through a Celery task, never inside the request.

settings.EMAIL_BACKEND is QueuedEmailBackend: send_mail() and friends hand it
their messages, it turns each into plain JSON data and queues the task
`mail.send` once the surrounding transaction commits (so a rolled-back request
sends nothing). The task rebuilds the message and delivers it with the backend
EMAIL_URL names (settings.EMAIL_DELIVERY_BACKEND: SMTP in production, the
console in development), retrying while the mail server is unreachable.

The tests' locmem backend replaces EMAIL_BACKEND as usual (pytest-django), so
code that sends mail is tested against mail.outbox unchanged.
"""

import base64
import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction

#: What a message keeps on its way through the broker (EmailMessage attribute names).
_FIELDS = ("subject", "body", "from_email", "to", "cc", "bcc", "reply_to", "extra_headers")


def _text_or_base64(content):
    if isinstance(content, bytes):
        return {"base64": base64.b64encode(content).decode("ascii")}
    return {"text": content}


def _from_text_or_base64(value):
    return base64.b64decode(value["base64"]) if "base64" in value else value["text"]


def message_to_data(message):
    """A JSON-serialisable copy of an EmailMessage (or EmailMultiAlternatives)."""
    data = {field: getattr(message, field) for field in _FIELDS}
    data["alternatives"] = [[content, mimetype] for content, mimetype in getattr(message, "alternatives", [])]
    data["attachments"] = []
    for attachment in message.attachments:
        if not isinstance(attachment, tuple):
            raise ValueError("queued mail takes attachments as (filename, content, mimetype), not MIME objects")
        filename, content, mimetype = attachment
        data["attachments"].append({"filename": filename, "content": _text_or_base64(content), "mimetype": mimetype})
    return data


def message_from_data(data):
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["extra_headers"],
    )
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    for attachment in data["attachments"]:
        message.attach(attachment["filename"], _from_text_or_base64(attachment["content"]), attachment["mimetype"])
    return message


@shared_task(
    name="mail.send",
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=True,
    max_retries=8,
)
def send_queued_mail(data):
    connection = get_connection(settings.EMAIL_DELIVERY_BACKEND, fail_silently=False)
    connection.send_messages([message_from_data(data)])


class QueuedEmailBackend(BaseEmailBackend):
    """Queues each message as a `mail.send` task once the transaction commits."""

    def send_messages(self, email_messages):
        queued = 0
        for message in email_messages:
            if not message.recipients():
                continue
            data = message_to_data(message)
            transaction.on_commit(lambda data=data: send_queued_mail.delay(data))
            queued += 1
        return queued
