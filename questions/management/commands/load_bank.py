import shutil
import time

from django.core.management.base import BaseCommand, CommandError

from questions.loader import BankLoadError, LoadProgress, default_bank_dir, load_bank


class TerminalProgress(LoadProgress):
    """load_bank's progress on `stream` (stderr: stdout keeps the summary scripts read).

    Grading each new exercise takes seconds to a minute, so a first load is minutes
    of work: each says which exercise, k of n, and what is being done to it. On a
    terminal that is one status line rewritten in place, and a failed exercise keeps
    a line of its own; elsewhere (a log, a pipe) one plain line per exercise. Either
    way the reasons come at the end, with the other entries left out."""

    def __init__(self, stream):
        self.stream = stream
        self.live = stream.isatty()
        self.status_shown = False
        self.grading_started = None
        self.graded = 0

    def read(self, root, entry_count, problem_count):
        problems = f"; {problem_count} cannot be loaded (named at the end)" if problem_count else ""
        self._line(f"Read {root}: {entry_count} entries{problems}.")

    def validating(self, position, total, entry):
        if self.grading_started is None:
            self.grading_started = time.monotonic()
        self._status(
            f"Exercise {position} of {total}: {entry.slug}: grading the model solution against the reference in the sandbox"
        )

    def validated(self, position, total, entry, problem):
        self.graded += 1
        if problem and self.live:
            self._line(f"Exercise {position} of {total}: {entry.slug}: failed validation (named below)")

    def saving(self, entry_count):
        if self.graded:
            self._line(f"Graded {self.graded} exercise(s) in {time.monotonic() - self.grading_started:.0f} s.")
        self._line(f"Saving {entry_count} entries to the database.")

    def _status(self, text):
        if self.live:
            # \r and "erase to the end of the line" (ANSI), so a shorter status leaves no tail;
            # cut to the terminal's width, since \r cannot go back over a wrapped line.
            width = shutil.get_terminal_size().columns - 1
            self._write(f"\r\x1b[K{text[:width]}", ending="")
            self.stream.flush()
            self.status_shown = True
        else:
            self._write(text)

    def _line(self, text):
        if self.status_shown:
            self._write("\r\x1b[K", ending="")
            self.status_shown = False
        self._write(text)

    def _write(self, text, ending="\n"):
        # Plain: on a terminal Django styles everything on stderr as an error.
        self.stream.write(text, style_func=lambda plain: plain, ending=ending)


class Command(BaseCommand):
    help = (
        "Load the question bank (Markdown files and exercise folders) into the database. "
        "Idempotent; edited files update their rows, removed files retire their questions. "
        "A bad entry is named on stderr and left out (its question, if loaded before, keeps its last loaded "
        "text, off the public pages, and authors see why on /authoring/), and the rest loads; "
        "--strict loads all or nothing."
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

    def handle(self, *args, path=None, skip_validation=False, strict=False, verbosity=1, **options):
        progress = TerminalProgress(self.stderr) if verbosity >= 1 else None
        try:
            report = load_bank(path, validate=not skip_validation, strict=strict, progress=progress)
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
            self.stderr.write(
                self.style.WARNING(
                    f"{len(report.left_out)} bank entry(ies) not loaded (above); the rest of the bank was. "
                    "A question such an entry held before keeps its last loaded text"
                    + (f", off the public pages ({', '.join(report.unpublished)})" if report.unpublished else "")
                    + "; authors see why on /authoring/. Fix the file and run load_bank again."
                )
            )
