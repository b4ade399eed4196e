"""Mail goes out through the Celery task mail.send, after the transaction commits,
with the delivery backend EMAIL_URL names."""

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMultiAlternatives, send_mail

from interview_platform.celery import app as celery_app
from interview_platform.config import env_email_url
from interview_platform.mail import message_from_data, message_to_data


@pytest.fixture
def queued_mail(settings):
    """The production backend, delivering to mail.outbox; tasks run in-process."""
    settings.EMAIL_BACKEND = "interview_platform.mail.QueuedEmailBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.mark.django_db
def test_send_mail_is_delivered_by_the_task_after_commit(queued_mail, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        sent = send_mail("Join Acme on Hotpath", "Follow the link.", "noreply@hotpath.test", ["ada@example.com"])
        assert sent == 1
        assert mail.outbox == [], "sent inside the request instead of from the task"
    assert len(callbacks) == 1
    [message] = mail.outbox
    assert (message.subject, message.body, message.to) == (
        "Join Acme on Hotpath",
        "Follow the link.",
        ["ada@example.com"],
    )


@pytest.mark.django_db(transaction=True)
def test_nothing_is_sent_when_the_transaction_rolls_back(queued_mail):
    from django.db import transaction

    with pytest.raises(RuntimeError):
        with transaction.atomic():
            send_mail("Never", "rolled back", "noreply@hotpath.test", ["ada@example.com"])
            raise RuntimeError("the request failed")
    assert mail.outbox == []


def test_message_survives_the_broker_as_json():
    import json

    message = EmailMultiAlternatives(
        "Report",
        "plain",
        "a@hotpath.test",
        ["b@example.com"],
        cc=["c@example.com"],
        reply_to=["r@example.com"],
        headers={"X-Hotpath": "1"},
    )
    message.attach_alternative("<p>html</p>", "text/html")
    message.attach("calls.csv", b"size,seconds\n1,0.5\n", "text/csv")
    rebuilt = message_from_data(json.loads(json.dumps(message_to_data(message))))
    assert rebuilt.message().as_bytes().split(b"\n\n", 1)[1].count(
        b"Content-Type"
    ) == message.message().as_bytes().split(b"\n\n", 1)[1].count(b"Content-Type")
    assert (rebuilt.subject, rebuilt.to, rebuilt.cc, rebuilt.reply_to) == (
        "Report",
        ["b@example.com"],
        ["c@example.com"],
        ["r@example.com"],
    )
    assert rebuilt.alternatives == [("<p>html</p>", "text/html")]
    assert rebuilt.attachments[0][:2] == ("calls.csv", "size,seconds\n1,0.5\n")
    assert rebuilt.extra_headers == {"X-Hotpath": "1"}


def test_email_url_is_parsed_and_a_bad_one_refused(monkeypatch):
    monkeypatch.setenv("EMAIL_URL", "smtp+tls://user:pa%40ss@mail.example.com:587")
    config = env_email_url("EMAIL_URL", "consolemail://")
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"], config["EMAIL_HOST_PASSWORD"], config["EMAIL_USE_TLS"]) == (
        "mail.example.com",
        587,
        "pa@ss",
        True,
    )
    monkeypatch.setenv("EMAIL_URL", "mail.example.com:25")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        env_email_url("EMAIL_URL", "consolemail://")
