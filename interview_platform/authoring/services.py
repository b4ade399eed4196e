"""What the authoring pages do (see authoring.views for who may)."""
from pathlib import Path

from django.db import transaction

from grader.validation import validate_exercise
from questions import loader
from questions.models import ExerciseVersion, Question

from .models import AuthoringEvent


class AuthoringError(Exception):
    """A refusal with a message written for the author."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


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


def export_to_bank(question, user, root=None):
    """Write one question (and its current exercise version) to the bank in the
    canonical layout load_bank reads. Returns the path inside the bank."""
    root = Path(root or loader.default_bank_dir())
    entry = loader.entry_from_question(question)
    entry_format = loader.format_for_kind(question.kind)
    entry_format.write(root, entry.path, entry.fields, entry.spec, entry.files)
    # Hash the file as load_bank will read it (PostgreSQL may hand back JSON keys in
    # another order than the file has), so the next load_bank leaves the row alone.
    written = entry_format.parse(root / entry.path, entry.path)
    Question.objects.filter(pk=question.pk).update(source_path=entry.path, content_hash=written.content_hash)
    AuthoringEvent.objects.create(
        user=user,
        question=question,
        exercise_version=question.current_exercise(),
        action=AuthoringEvent.Action.EXPORTED,
        detail=entry.path,
    )
    return entry.path
