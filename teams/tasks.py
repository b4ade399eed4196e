from celery import shared_task

from . import services


@shared_task(name="teams.finalise_expired_sessions")
def finalise_expired_sessions():
    """Runs on the beat schedule: closes sittings whose candidate never came back."""
    return services.finalise_expired_sessions()
