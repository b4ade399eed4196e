"""Grade a file against an exercise, synchronously, with no broker:

    python manage.py grade python-loop-to-numpy my_answer.py [--json] [--mode check] [--backend bwrap]

The exercise comes from its bank folder (questions/bank/**/<slug>/) when there is
one, so authors can grade against what they are editing; otherwise from the
database's current version. With --json, stdout holds exactly one JSON object;
otherwise a progress bar runs on stderr while it grades, when stderr is a terminal.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from submissions import progress
from grader.errors import PlatformError
from grader.grading import MODES, Exercise, grade
from grader.harness import feedback
from submissions.services.intake import clean_code
from questions.loader import default_bank_dir, read_bank
from questions.models import Question


#: Characters of the terminal line the progress bar takes.
PROGRESS_WIDTH = 100


def find_exercise(slug):
    entries, _errors = read_bank(default_bank_dir())  # other files' problems do not matter here
    for entry in entries:
        if entry.slug == slug and entry.spec is not None:
            return Exercise(slug=slug, spec=entry.spec, files=entry.files)
    question = Question.objects.filter(slug=slug).first()
    version = question.current_exercise() if question else None
    if version is None:
        raise CommandError(f"No coding exercise with slug {slug!r} in the bank folder or the database.")
    return Exercise.from_version(version)


def _number(value, digits=3, suffix=""):
    return "-" if value is None else f"{value:.{digits}g}{suffix}"


def _mib(value):
    return "-" if value is None else f"{value / 1024**2:.1f} MiB"


def _interval(pair):
    return "-" if not pair else f"[{_number(pair[0])}, {_number(pair[1])}]"


class Command(BaseCommand):
    help = "Grade a Python file against a coding exercise in the sandbox and print the report."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="exercise slug, e.g. python-loop-to-numpy")
        parser.add_argument("file", help="the Python file to grade")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object and nothing else")
        parser.add_argument(
            "--backend", choices=["bwrap", "docker"], help="sandbox backend (default: settings.SANDBOX_BACKEND)"
        )
        parser.add_argument("--mode", choices=MODES, default="full", help="full grading, or a quick correctness check")

    def handle(self, *args, **options):
        try:
            raw = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}") from None
        try:
            code = clean_code(raw)
        except Exception as exc:  # ValidationError: say why in plain words
            raise CommandError(" ".join(getattr(exc, "messages", [str(exc)]))) from None
        exercise = find_exercise(options["slug"])
        bar = self.progress_bar() if not options["json"] and self.stderr.isatty() else None
        try:
            report = grade(exercise, code, mode=options["mode"], backend=options["backend"], progress=bar)
        except PlatformError as exc:
            raise CommandError(f"The grader could not run ({exc.error_id}): {exc.message}") from None
        finally:
            if bar is not None:
                self.stderr.write("\r" + " " * PROGRESS_WIDTH + "\r", ending="")
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.print_report(exercise, report)

    def progress_bar(self):
        """A callback for grade(): redraws one line on the terminal at each progress
        report of the harness (at most about once a second)."""

        def draw(latest):
            self.stderr.write("\r" + progress.bar(latest)[:PROGRESS_WIDTH].ljust(PROGRESS_WIDTH), ending="")
            self.stderr.flush()

        return draw

    def print_roofline(self, roofline):
        host = roofline["host"]
        if roofline.get("target") == "gpu":
            self.stdout.write(
                f"Roofline on {host['device']} (GPU): memory {feedback.three_figures(host['bandwidth_gbs'])} GB/s, "
                f"compute {feedback.three_figures(host['compute_gflops'])} GFLOP/s in {host['compute_dtype']} (measured {host['measured_at'][:16]})"
            )
        else:
            self.stdout.write(
                f"Roofline on {host['cpu_model']} (CPU {host['cpu']}): memory {feedback.three_figures(host['bandwidth_gbs'])} GB/s, "
                f"compute {feedback.three_figures(host['compute_gflops'])} GFLOP/s on one core (measured {host['measured_at'][:16]})"
                + (
                    f"; one pass into a new array {feedback.three_figures(host['fresh_pass_gbs'])} GB/s"
                    if host.get("fresh_pass_gbs")
                    else ""
                )
            )
        for row in roofline["sizes"]:
            sides = []
            for side in ("submission", "reference"):
                figures = row[side]
                if figures:
                    sides.append(
                        f"{side} {feedback.three_figures(figures['gbs'])} GB/s ({feedback.percent(figures['bandwidth_fraction'])}), "
                        f"{feedback.three_figures(figures['gflops'])} GFLOP/s ({feedback.percent(figures['compute_fraction'])})"
                    )
            self.stdout.write(f"  size {row['size']}: " + "; ".join(sides))
        if roofline["hint"]:
            self.stdout.write(f"Roofline hint: {roofline['hint']}")

    def print_report(self, exercise, report):
        write = self.stdout.write
        write(f"{exercise.slug}: {report['verdict']} ({report['mode']} mode, hardware {report['hardware']})")
        write(report["message"])
        if report["speedup"] is not None:
            write(f"Speedup: {_number(report['speedup'])}x, 95% CI {_interval(report['speedup_ci'])}")
        write(
            f"Peak memory: {_mib(report['peak_memory_bytes'])} (reference {_mib(report['reference_peak_memory_bytes'])})"
        )
        if report["scaling_exponent"] is not None:
            write(
                f"Scaling exponent: {_number(report['scaling_exponent'])} (reference {_number(report['reference_scaling_exponent'])})"
            )
        if report["sizes"]:
            header = ("size", "time", "reference", "speedup", "95% CI", "memory", "ref memory", "first call", "correct")
            rows = [
                (
                    str(row.get("size")),
                    _number(row.get("time_s"), suffix=" s"),
                    _number(row.get("reference_time_s"), suffix=" s"),
                    _number(row.get("speedup"), suffix="x"),
                    _interval(row.get("speedup_ci")),
                    _mib(row.get("peak_memory_bytes")),
                    _mib(row.get("reference_peak_memory_bytes")),
                    _number(row.get("first_call_s"), suffix=" s"),
                    {True: "yes", False: "NO", None: "-"}[row.get("correct")],
                )
                for row in report["sizes"]
            ]
            widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(len(header))]
            for cells in [header, *rows]:
                write("  ".join(cell.rjust(width) for cell, width in zip(cells, widths)))
        if report["hint"]:
            write(f"Hint: {report['hint']}")
        if report.get("roofline"):
            self.print_roofline(report["roofline"])
        if report["failure"]:
            write("Failure: " + json.dumps(report["failure"], indent=2))
