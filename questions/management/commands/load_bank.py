from django.core.management.base import BaseCommand, CommandError

from questions.loader import BankLoadError, default_bank_dir, load_bank


class Command(BaseCommand):
    help = (
        "Load the question bank (Markdown files and exercise folders) into the database. "
        "Idempotent; edited files update their rows, removed files retire their questions. "
        "All or nothing: any bad file is reported and nothing is loaded."
    )

    def add_arguments(self, parser):
        parser.add_argument("--path", default=None, help=f"bank directory (default: {default_bank_dir()})")
        parser.add_argument(
            "--skip-validation",
            action="store_true",
            help="do not run new exercise versions through the grader (reference vs solution); for quick local loads",
        )

    def handle(self, *args, path=None, skip_validation=False, **options):
        try:
            report = load_bank(path, validate=not skip_validation)
        except BankLoadError as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(str(exc)) from None
        self.stdout.write(report.summary())
        if skip_validation and report.new_versions:
            self.stdout.write(self.style.WARNING("New exercise versions were not validated (--skip-validation)."))
