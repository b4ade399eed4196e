"""The bank and the database: load_bank (idempotent, retiring what disappeared,
a new ExerciseVersion only when an exercise changed; a broken entry is left out
unless the load is strict, which is all or nothing) and dump_bank (rows back to
files in the canonical layout)."""

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from grader import validation

from ..bank_version import record_bank_change
from ..models import BankProblem, ExerciseVersion, Kind, Question, Track, Visibility
from .entries import BankEntry, BankError, BankLoadError
from .formats import format_for_kind, read_bank
from .schema import COMMON_KEYS, EXERCISE_FILES, OPTIONAL_EXERCISE_FILES, SECTIONS, default_bank_dir
from .tracks import read_tracks, write_tracks


@dataclass
class LoadReport:
    created: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    restored: list = field(default_factory=list)
    retired: list = field(default_factory=list)
    new_versions: list = field(default_factory=list)
    #: Public questions whose entry was left out this time: taken off the public pages.
    unpublished: list = field(default_factory=list)
    #: BankErrors of the entries left out (not loaded; a question they held keeps its last
    #: loaded text, off the public pages until its entry loads again).
    problems: list = field(default_factory=list)

    @property
    def changed(self):
        return bool(
            self.created or self.updated or self.restored or self.retired or self.new_versions or self.unpublished
        )

    @property
    def left_out(self):
        """The bank paths whose entries were not loaded."""
        return sorted({problem.path for problem in self.problems})

    def summary(self):
        counts = (
            f"{len(self.created)} created, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
            f"{len(self.retired)} retired, {len(self.restored)} restored, {len(self.new_versions)} new exercise version(s)"
        )
        if self.left_out:
            counts += f"; {len(self.left_out)} {'entry' if len(self.left_out) == 1 else 'entries'} not loaded"
        if self.unpublished:
            counts += f", {len(self.unpublished)} of them taken off the public pages"
        return counts if self.changed else f"Nothing changed: {counts}."


class LoadProgress:
    """What load_bank says while it works, to whoever watches (the command prints it).
    This base says nothing; each method is one step."""

    def read(self, root, entry_count, problem_count):
        """The bank at `root` was read: `entry_count` good entries, `problem_count` problems."""

    def validating(self, position, total, entry):
        """Exercise `position` of `total` (1-based) is being graded: reference against model solution."""

    def validated(self, position, total, entry, problem):
        """That grading ended; `problem` says why the exercise failed, "" when it passed."""

    def saving(self, entry_count):
        """The entries are being written to the database (one transaction)."""


@dataclass
class _Plan:
    entry: BankEntry
    question: Question | None
    needs_version: bool
    validation_report: dict | None = None


def _plan(entries):
    existing = {question.slug: question for question in Question.objects.filter(slug__in=[e.slug for e in entries])}
    plans = []
    for entry in entries:
        question = existing.get(entry.slug)
        needs_version = False
        if entry.spec is not None:
            current = question.current_exercise() if question else None
            needs_version = current is None or current.content_hash != entry.exercise_hash
        plans.append(_Plan(entry=entry, question=question, needs_version=needs_version))
    return plans


def validate_exercise_entry(entry):
    """Run the exercise through the judge (reference vs solution in the sandbox).
    Returns (report, error message or "")."""
    result = validation.validate_exercise(entry.spec, entry.files)
    if not result.ok:
        return result.report, f"validation failed: {result.message}"
    return result.report, ""


def load_bank(root=None, *, validate=True, strict=False, progress=None):
    """Load the bank at `root` (default questions/bank/) and return a LoadReport.

    An entry that cannot be loaded (a bad file, a duplicate slug, an exercise whose
    model solution fails validation) is left out, listed in `report.problems` and kept as
    BankProblem rows for the authoring pages; the question it held, if any, keeps its
    last loaded version (neither updated nor retired) but leaves the public pages
    (`report.unpublished`) until its entry loads again, so one bad file never takes the
    site down nor leaves learners a question its source no longer holds. Raises BankLoadError, having
    written nothing, when `strict` and there is any problem, or when there are
    problems and no entry at all could be loaded. `progress` (a LoadProgress) hears
    each step."""
    progress = progress or LoadProgress()
    root = Path(root or default_bank_dir())
    if not root.is_dir():
        raise BankLoadError([BankError(str(root), "not a directory")])
    entries, errors = read_bank(root)
    entries = _without_broken(entries, errors)
    progress.read(root, len(entries), len(errors))
    if strict and errors:
        raise BankLoadError(errors)
    plans = _plan(entries)
    if validate:
        failed = _validate_new_versions(plans, progress)
        errors.extend(failed)
        plans = _without_failed(plans, failed)
    kept_paths = {error.path for error in errors}
    tracks, track_errors = read_tracks(root, _known_slugs(plans, kept_paths))
    errors.extend(track_errors)
    if errors and (strict or not plans):
        raise BankLoadError(errors)
    progress.saving(len(plans))
    with transaction.atomic():
        report = _apply(plans, kept_paths=kept_paths)
        if not track_errors:  # a bad tracks.yaml leaves the tracks as last loaded
            _sync_tracks(tracks)
        BankProblem.objects.all().delete()
        BankProblem.objects.bulk_create(BankProblem(path=error.path, reason=error.reason) for error in errors)
    report.problems = errors
    return report


def _known_slugs(plans, kept_paths):
    """The question slugs a track may name: this load's, and those of live questions whose
    entry was left out this time (their last loaded version stays)."""
    kept = Question.objects.live().filter(source_path__in=kept_paths).values_list("slug", flat=True)
    return {plan.entry.slug for plan in plans} | set(kept)


def _sync_tracks(tracks):
    """Make the Track rows exactly `tracks`, in their order."""
    Track.objects.exclude(slug__in=[track.slug for track in tracks]).delete()
    for position, track in enumerate(tracks):
        Track.objects.update_or_create(
            slug=track.slug,
            defaults={
                "name": track.name,
                "description": track.description,
                "position": position,
                "prerequisites": list(track.prerequisites),
                "question_slugs": list(track.questions),
            },
        )


def _without_broken(entries, errors):
    """The entries no error names (read_bank reports the second of two entries with one slug)."""
    broken = {error.path for error in errors}
    return [entry for entry in entries if entry.path not in broken]


def _without_failed(plans, failed):
    failed_paths = {error.path for error in failed}
    return [plan for plan in plans if plan.entry.path not in failed_paths]


def _validate_new_versions(plans, progress):
    """Grade every exercise that needs a new version; returns a BankError for each that fails."""
    errors = []
    to_validate = [plan for plan in plans if plan.needs_version]
    for position, plan in enumerate(to_validate, start=1):
        progress.validating(position, len(to_validate), plan.entry)
        plan.validation_report, message = validate_exercise_entry(plan.entry)
        progress.validated(position, len(to_validate), plan.entry, message)
        if message:
            errors.append(BankError(plan.entry.path, message))
    return errors


def _apply(plans, kept_paths):
    """Write the plans' entries; retire live bank questions whose file is gone, except
    those at `kept_paths` (entries left out this time, whose file is still there)."""
    report = LoadReport()
    now = timezone.now()
    for plan in plans:
        entry, question = plan.entry, plan.question
        if question is None:
            question = Question.objects.create(source_path=entry.path, content_hash=entry.content_hash, **entry.fields)
            report.created.append(entry.slug)
        elif (
            question.content_hash == entry.content_hash
            and question.source_path == entry.path
            and not question.is_retired
        ):
            report.unchanged.append(entry.slug)
        else:
            (report.restored if question.is_retired else report.updated).append(entry.slug)
            for name, value in entry.fields.items():
                setattr(question, name, value)
            question.source_path = entry.path
            question.content_hash = entry.content_hash
            question.retired_at = None
            question.save()
        if plan.needs_version:
            _create_version(question, entry, plan.validation_report)
            report.new_versions.append(entry.slug)
    loaded = [plan.entry.slug for plan in plans]
    # Only questions that came from bank files are retired; ones written in the admin have no file.
    gone = Question.objects.live().exclude(source_path="").exclude(slug__in=loaded).exclude(source_path__in=kept_paths)
    report.retired = list(gone.values_list("slug", flat=True))
    gone.update(retired_at=now)
    # The hash is cleared so that the entry, once it loads again, is written back, visibility
    # included, even when its file is fixed to exactly what it was before it broke.
    broken = Question.objects.live().public().filter(source_path__in=kept_paths).exclude(slug__in=loaded)
    report.unpublished = list(broken.values_list("slug", flat=True))
    broken.update(visibility=Visibility.ASSESSMENT, content_hash="")
    record_bank_change()  # a queryset update sends no post_save
    return report


def _create_version(question, entry, validation_report):
    current = question.current_exercise()
    code = {EXERCISE_FILES[name]: text for name, text in entry.files.items()}
    return ExerciseVersion.objects.create(
        question=question,
        number=(current.number + 1) if current else 1,
        spec=entry.spec,
        content_hash=entry.exercise_hash,
        validation_report=validation_report,
        **code,
    )


# ---------------------------------------------------------------------------
# Dumping rows back to files.

QUESTION_FIELDS = (*COMMON_KEYS, "visibility", *SECTIONS, "rubric", "answer_value", "answer_unit", "tolerance", "extra")


def entry_from_question(question):
    fields = {name: getattr(question, name) for name in QUESTION_FIELDS}
    spec = files = None
    if question.kind == Kind.CODING:
        exercise = question.current_exercise()
        spec = exercise.spec if exercise else {}
        files = {}
        if exercise:
            for name, attribute in EXERCISE_FILES.items():
                text = getattr(exercise, attribute)
                if text or name not in OPTIONAL_EXERCISE_FILES:
                    files[name] = text
    path = question.source_path or format_for_kind(question.kind).default_path(fields)
    return BankEntry(path=path, fields=fields, spec=spec, files=files)


def dump_bank(root):
    """Write every live question to `root` in the canonical layout. Returns how many."""
    root = Path(root)
    count = 0
    for question in Question.objects.live().order_by("source_path", "slug"):
        entry = entry_from_question(question)
        format_for_kind(question.kind).write(root, entry.path, entry.fields, entry.spec, entry.files)
        count += 1
    write_tracks(root, Track.objects.all())
    return count
