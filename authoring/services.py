"""What the authoring pages do (see authoring.views for who may)."""

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.db import models, transaction

from grader.validation import validate_exercise
from questions import loader
from questions.models import BankProblem, ExerciseVersion, Kind, Question, Visibility

from .errors import AuthoringError
from .models import AuthoringEvent
from .writing import WRITTEN_KINDS, question_problems


class QuestionState(models.TextChoices):
    """Where a question stands, as the authoring pages name it."""

    DRAFT = "draft", "Draft"  # on no public page and not yet in the bank's files
    PRIVATE = "private", "Private"  # in the bank, for assessments only
    PUBLISHED = "published", "Published"  # on every public page


def question_state(question):
    if question.is_public:
        return QuestionState.PUBLISHED
    return QuestionState.PRIVATE if question.source_path else QuestionState.DRAFT


@dataclass(frozen=True)
class LeftOutEntry:
    """A bank entry the last load_bank left out: its path, every reason, and the question
    it held before, if any (kept at its last loaded text, off the public pages)."""

    path: str
    reasons: list
    question: Question | None


def left_out_entries(question=None):
    """The entries the last load_bank left out (only `question`'s file, when given)."""
    problems = BankProblem.objects.all()
    if question is not None:
        if not question.source_path:
            return []
        problems = problems.filter(path=question.source_path)
    reasons = {}
    for problem in problems:
        reasons.setdefault(problem.path, []).append(problem.reason)
    held = {held.source_path: held for held in Question.objects.live().filter(source_path__in=reasons)}
    return [LeftOutEntry(path, path_reasons, held.get(path)) for path, path_reasons in reasons.items()]


def version_files(version):
    """An ExerciseVersion's code as bank file name -> text (what validation and hashing take)."""
    files = {}
    for name, attribute in loader.EXERCISE_FILES.items():
        text = getattr(version, attribute)
        if text or name not in loader.OPTIONAL_EXERCISE_FILES:
            files[name] = text
    return files


def validate_draft(spec, files):
    """Grade the reference and the model solution in the sandbox; nothing is saved."""
    return validate_exercise(spec, files)


def validate_version(version, user):
    """Validate a saved version again and keep the report on it (shown to authors)."""
    result = validate_exercise(version.spec, version_files(version))
    version.validation_report = result.report
    version.save(update_fields=["validation_report"])
    AuthoringEvent.objects.create(
        user=user,
        question=version.question,
        exercise_version=version,
        action=AuthoringEvent.Action.VALIDATED,
        detail="passed" if result.ok else f"failed: {result.message}",
    )
    return result


def create_version(question, spec, files, user):
    """Save an edit as a new version, never changing one candidates may have been
    graded on. The edit must pass validation first, as load_bank requires of files."""
    content_hash = loader.exercise_content_hash(spec, files)
    current = question.current_exercise()
    if current is not None and current.content_hash == content_hash:
        raise AuthoringError("Nothing changed: this is the current version.")
    result = validate_exercise(spec, files)
    if not result.ok:
        raise AuthoringError(f"Validation failed, so no version was saved: {result.message}")
    with transaction.atomic():
        question = Question.objects.select_for_update().get(pk=question.pk)
        current = question.current_exercise()
        code = {attribute: files.get(name, "") for name, attribute in loader.EXERCISE_FILES.items()}
        version = ExerciseVersion.objects.create(
            question=question,
            number=current.number + 1 if current else 1,
            spec=spec,
            content_hash=content_hash,
            validation_report=result.report,
            **code,
        )
        AuthoringEvent.objects.create(
            user=user, question=question, exercise_version=version, action=AuthoringEvent.Action.NEW_VERSION
        )
    return version


def set_public(question, public, user):
    """Publish `question` (every public page, practice and leaderboards) or take it off
    the public pages (assessments only), and record who did. False when it already was;
    AuthoringError for a coding exercise with no version to practise on, or a question
    whose text the bank would refuse. Saving the
    question raises the bank's version, so cached public pages follow at once."""
    if question.is_public == public:
        return False
    if public and question.kind == Kind.CODING and question.current_exercise() is None:
        raise AuthoringError("Not published: this exercise has no version yet. Write and validate its first version.")
    if public and question.kind in WRITTEN_KINDS:
        reasons = question_problems(question)
        if reasons:
            raise AuthoringError("Not published: load_bank would refuse this question. Edit it first.", reasons)
    question.visibility = Visibility.PUBLIC if public else Visibility.ASSESSMENT
    question.save(update_fields=["visibility"])
    AuthoringEvent.objects.create(
        user=user,
        question=question,
        exercise_version=question.current_exercise(),
        action=AuthoringEvent.Action.PUBLISHED if public else AuthoringEvent.Action.UNPUBLISHED,
    )
    return True


def export_to_bank(question, user, root=None):
    """Write one question (and its current exercise version) to the bank in the
    canonical layout load_bank reads, and return its path inside the bank.

    Nothing is written unless the entry passes the loader's own reading of it (on a
    staged copy) and, for a coding exercise, its current version's last validation in the
    sandbox passed (load_bank grades an exercise it has not seen); it replaces the old
    entry by renaming, so the bank never holds an entry load_bank would refuse or one half
    written. Raises AuthoringError, the bank unchanged, when the loader refuses the entry,
    the last validation failed, or the disk write fails."""
    root = Path(root or loader.default_bank_dir())
    _refuse_failed_validation(question.current_exercise())
    entry = loader.entry_from_question(question)
    try:
        written = _write_checked(root, entry)
    except OSError as error:
        raise AuthoringError(f"Not exported: writing to the bank failed ({error}). The bank is as it was.") from None
    # Hash the file as load_bank will read it (PostgreSQL may hand back JSON keys in
    # another order than the file has), so the next load_bank leaves the row alone.
    Question.objects.filter(pk=question.pk).update(source_path=entry.path, content_hash=written.content_hash)
    AuthoringEvent.objects.create(
        user=user,
        question=question,
        exercise_version=question.current_exercise(),
        action=AuthoringEvent.Action.EXPORTED,
        detail=entry.path,
    )
    return entry.path


def _refuse_failed_validation(version):
    """A version whose last validation graded its model solution other than accepted
    (its report says so) is refused; one never validated here (loaded with
    --skip-validation, or a GPU exercise on a host without one) is left to load_bank."""
    report = version.validation_report if version is not None else None
    if report and report.get("verdict") not in (None, "accepted"):
        raise AuthoringError(
            f"Not exported, and nothing was written: version {version.number} last failed validation, so "
            "load_bank would leave it out. Run validation again, or save a version that passes.",
            reasons=[f"solution.py was graded {report['verdict']}: {report.get('message', '')}".rstrip(": ")],
        )


#: Staging folders are made inside the bank, so the final rename stays on one file system;
#: load_bank skips names that start with a dot, so it never reads one.
STAGING_PREFIX = ".export-"


def _write_checked(root, entry):
    """Render `entry` into a staging folder, read it back with the loader (every check
    load_bank makes of a file), and move it into `root` only if it passed. Returns the
    entry as the loader read it."""
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=STAGING_PREFIX) as staging:
        staging = Path(staging)
        loader.format_for_kind(entry.fields["kind"]).write(staging, entry.path, entry.fields, entry.spec, entry.files)
        staged, errors = loader.read_bank(staging)
        if errors or len(staged) != 1:
            raise AuthoringError(
                "Not exported, and nothing was written: load_bank would refuse this entry. Fix what is listed "
                "on the question's edit page and export again.",
                reasons=[str(error) for error in errors] or [f"{entry.path}: load_bank would not find it in the bank"],
            )
        _move_into_place(staging / entry.path, root / entry.path, aside=staging / ".previous")
    return staged[0]


def _move_into_place(staged, target, aside):
    """Replace `target` with `staged` by renames, each atomic on one file system: a reader
    of the bank sees the old entry or the new one, never part of either. A folder cannot
    be renamed over a non-empty one, so an old exercise folder first moves `aside`
    (removed with the staging folder); for that instant the entry is absent, not partial."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if not (staged.is_dir() and target.exists()):
        os.replace(staged, target)
        return
    os.replace(target, aside)
    try:
        os.replace(staged, target)
    except OSError:
        os.replace(aside, target)
        raise
