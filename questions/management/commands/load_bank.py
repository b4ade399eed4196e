from django.core.management.base import BaseCommand, CommandError

from questions.loader import BankLoadError, default_bank_dir, load_bank


class Command(BaseCommand):
    help = (
        "Load the question bank (Markdown files and exercise folders) into the database. "
        "Idempotent; edited files update their rows, removed files retire their questions. "
        "A bad entry is named on stderr and left out (its question, if loaded before, stays as it was), "
        "and the rest loads; --strict loads all or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--path", default=None, help=f"bank directory (default: {default_bank_dir()})")
        parser.add_argument(
            "--skip-validation",
            action="store_true",
            help="do not run new exercise versions through the grader (reference vs solution); for quick local loads",
        )
        parser.add_argument(
            "--strict",
            action="store_true",
            help="load nothing and exit 1 if any entry is bad (CI, and checking a bank before it ships)",
        )

    def handle(self, *args, path=None, skip_validation=False, strict=False, **options):
        try:
            report = load_bank(path, validate=not skip_validation, strict=strict)
        except BankLoadError as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(str(exc)) from None
        self._warn_left_out(report)
        self.stdout.write(report.summary())
        if skip_validation and report.new_versions:
            self.stdout.write(self.style.WARNING("New exercise versions were not validated (--skip-validation)."))

    def _warn_left_out(self, report):
        for problem in report.problems:
            self.stderr.write(self.style.WARNING(f"Not loaded: {problem}"))
        if report.problems:
            self.stderr.write(self.style.WARNING(
                f"{len(report.left_out)} bank entry(ies) not loaded (above); the rest of the bank was. "
                "A question such an entry held before stays as it was. Fix the file and run load_bank again."
            ))
