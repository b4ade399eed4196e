from django.core.management.base import BaseCommand

from questions.loader import dump_bank


class Command(BaseCommand):
    help = "Write every live question back to bank files under DIR, in the canonical layout load_bank reads."

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", help="where to write the bank (created if missing; existing files are overwritten)"
        )

    def handle(self, *args, directory, **options):
        count = dump_bank(directory)
        self.stdout.write(f"Wrote {count} question(s) to {directory}.")
