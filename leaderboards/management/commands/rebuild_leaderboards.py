import time

from django.core.management.base import BaseCommand

from leaderboards import services


class Command(BaseCommand):
    help = "Recompute every leaderboard table from the graded Submission rows (e.g. after a difficulty change)."

    def handle(self, *args, **options):
        started = time.perf_counter()
        entries, people = services.rebuild()
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(f"Rebuilt leaderboards: {entries} entries for {people} people in {elapsed:.1f} s.")
        )
