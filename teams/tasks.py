from celery import shared_task

from . import services, webhooks


@shared_task(name="teams.finalise_expired_sessions")
def finalise_expired_sessions():
    """Runs on the beat schedule: closes sittings whose candidate never came back."""
    return services.finalise_expired_sessions()


@shared_task(name="teams.deliver_webhook")
def deliver_webhook(delivery_id):
    """One try of a webhook delivery; queues the next try when one is due (teams.webhooks)."""
    delay = webhooks.attempt_delivery(delivery_id)
    if delay is not None:
        deliver_webhook.apply_async((delivery_id,), countdown=delay)
