from django.core.management.base import BaseCommand

from teams.services import finalise_expired_sessions


class Command(BaseCommand):
    help = "Finalise candidate sittings whose deadline has passed (what the periodic Celery task does)."

    def handle(self, *args, **options):
        count = finalise_expired_sessions()
        self.stdout.write(f"Finalised {count} expired session(s).")
