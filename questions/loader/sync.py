"""The bank and the database: load_bank (all or nothing, idempotent, retiring
what disappeared, a new ExerciseVersion only when an exercise changed) and
dump_bank (rows back to files in the canonical layout)."""
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from .. import hooks
from ..bank_version import record_bank_change
from ..models import ExerciseVersion, Kind, Question
from .entries import BankEntry, BankError, BankLoadError
from .formats import format_for_kind, read_bank
from .schema import COMMON_KEYS, EXERCISE_FILES, OPTIONAL_EXERCISE_FILES, SECTIONS, default_bank_dir


@dataclass
class LoadReport:
    created: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    restored: list = field(default_factory=list)
    retired: list = field(default_factory=list)
    new_versions: list = field(default_factory=list)

    @property
    def changed(self):
        return bool(self.created or self.updated or self.restored or self.retired or self.new_versions)

    def summary(self):
        counts = (
            f"{len(self.created)} created, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
            f"{len(self.retired)} retired, {len(self.restored)} restored, {len(self.new_versions)} new exercise version(s)"
        )
        return counts if self.changed else f"Nothing changed: {counts}."


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
    """Run the exercise through the grader (reference vs solution in the sandbox).
    Returns (report, error message or "")."""
    validate_exercise = hooks.exercise_validator()
    if validate_exercise is None:
        return None, "cannot validate the exercise (no grader is installed); load with --skip-validation for a quick local load"
    result = validate_exercise(entry.spec, entry.files)
    if not result.ok:
        return result.report, f"validation failed: {result.message}"
    return result.report, ""


def load_bank(root=None, *, validate=True):
    """Load the bank at `root` (default questions/bank/). All or nothing: raises
    BankLoadError listing every problem, having written nothing."""
    root = Path(root or default_bank_dir())
    if not root.is_dir():
        raise BankLoadError([BankError(str(root), "not a directory")])
    entries, errors = read_bank(root)
    if errors:
        raise BankLoadError(errors)
    plans = _plan(entries)
    if validate:
        for plan in plans:
            if plan.needs_version:
                plan.validation_report, message = validate_exercise_entry(plan.entry)
                if message:
                    errors.append(BankError(plan.entry.path, message))
    if errors:
        raise BankLoadError(errors)
    with transaction.atomic():
        return _apply(plans)


def _apply(plans):
    report = LoadReport()
    now = timezone.now()
    for plan in plans:
        entry, question = plan.entry, plan.question
        if question is None:
            question = Question.objects.create(source_path=entry.path, content_hash=entry.content_hash, **entry.fields)
            report.created.append(entry.slug)
        elif question.content_hash == entry.content_hash and question.source_path == entry.path and not question.is_retired:
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
    gone = Question.objects.live().exclude(source_path="").exclude(slug__in=loaded)
    report.retired = list(gone.values_list("slug", flat=True))
    gone.update(retired_at=now)
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
    return count
