"""Entry formats, the registry: a format says which paths it claims (a Markdown
file, a folder holding question.md), how to parse one and how to write one.
Adding a format means adding a class here. read_bank walks a bank with them."""

import os
from pathlib import Path, PurePosixPath

from django.utils.text import slugify

from ..models import Kind
from ..text import unix_newlines
from .canonical import render_question_markdown
from .entries import BankEntry, BankError, BankFileInvalid
from .fields import parse_question_markdown
from .schema import EXERCISE_FILES, EXERCISE_MARKDOWN, OPTIONAL_EXERCISE_FILES, TOPIC_FOLDERS


def _read_text(path):
    try:
        return unix_newlines(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise BankFileInvalid([f"{path.name} is not UTF-8 text"]) from None


def _check_name_matches_slug(name, fields):
    slug = fields.get("slug")
    if slug and name != slug:
        raise BankFileInvalid(
            [f"slug '{slug}' does not match the name '{name}' (name the file or folder after the slug)"]
        )


class QuestionFile:
    """A concept or numeric question: <topic-folder>/<slug>.md."""

    kinds = (Kind.CONCEPT, Kind.NUMERIC)

    def claims(self, path):
        return path.is_file() and path.suffix == ".md" and path.name.lower() != "readme.md"

    def parse(self, path, relative):
        fields, spec = parse_question_markdown(_read_text(path), in_folder=False)
        _check_name_matches_slug(path.stem, fields)
        return BankEntry(path=relative, fields=fields, spec=spec)

    def default_path(self, fields):
        return f"{topic_folder(fields['topic'])}/{fields['slug']}.md"

    def write(self, root, relative, fields, spec, files):
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_question_markdown(fields, spec), encoding="utf-8")


class ExerciseFolder:
    """A coding exercise: <topic-folder>/<slug>/ with question.md and its code files."""

    kinds = (Kind.CODING,)

    def claims(self, path):
        return path.is_dir() and (path / EXERCISE_MARKDOWN).is_file()

    def parse(self, path, relative):
        reasons = []
        present = {child.name for child in path.iterdir() if not child.name.startswith((".", "__"))}
        unexpected = sorted(present - {EXERCISE_MARKDOWN, *EXERCISE_FILES})
        if unexpected:
            reasons.append(
                f"unexpected file(s) {', '.join(unexpected)} (an exercise folder holds {EXERCISE_MARKDOWN}, {', '.join(EXERCISE_FILES)})"
            )
        missing = [name for name in EXERCISE_FILES if name not in present and name not in OPTIONAL_EXERCISE_FILES]
        if missing:
            reasons.append(f"missing file(s) {', '.join(missing)}")
        try:
            fields, spec = parse_question_markdown(_read_text(path / EXERCISE_MARKDOWN), in_folder=True)
            _check_name_matches_slug(path.name, fields)
        except BankFileInvalid as exc:
            reasons.extend(f"{EXERCISE_MARKDOWN}: {reason}" for reason in exc.reasons)
        files = {}
        for name in EXERCISE_FILES:
            if name in present and (path / name).is_file():
                try:
                    files[name] = _read_text(path / name)
                except BankFileInvalid as exc:
                    reasons.extend(exc.reasons)
        if reasons:
            raise BankFileInvalid(reasons)
        return BankEntry(path=relative, fields=fields, spec=spec, files=files)

    def default_path(self, fields):
        return f"{topic_folder(fields['topic'])}/{fields['slug']}"

    def write(self, root, relative, fields, spec, files):
        folder = root / relative
        folder.mkdir(parents=True, exist_ok=True)
        (folder / EXERCISE_MARKDOWN).write_text(render_question_markdown(fields, spec), encoding="utf-8")
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")


# Folders are asked first: a folder an entry claims is not searched further.
ENTRY_FORMATS = (ExerciseFolder(), QuestionFile())


def format_for_kind(kind):
    return next(entry_format for entry_format in ENTRY_FORMATS if kind in entry_format.kinds)


def topic_folder(topic):
    return TOPIC_FOLDERS.get(topic) or slugify(topic) or "other"


def read_bank(root):
    """Parse every entry under `root`. Returns (entries, errors); never touches the database."""
    root = Path(root)
    entries, errors = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        directory = Path(dirpath)
        dirnames.sort()
        kept = []
        for name in dirnames:
            if name.startswith((".", "__")):
                continue
            child = directory / name
            entry_format = next((f for f in ENTRY_FORMATS if f.claims(child)), None)
            if entry_format is None:
                kept.append(name)
            else:
                _parse_entry(entry_format, child, root, entries, errors)
        dirnames[:] = kept
        for name in sorted(filenames):
            child = directory / name
            entry_format = next((f for f in ENTRY_FORMATS if f.claims(child)), None)
            if entry_format is not None:
                _parse_entry(entry_format, child, root, entries, errors)
            elif child.suffix == ".py":
                errors.append(
                    BankError(
                        _relative(child, root),
                        f"Python file outside an exercise folder (no {EXERCISE_MARKDOWN} beside it)",
                    )
                )
    errors.extend(_duplicate_slug_errors(entries))
    return entries, errors


def _relative(path, root):
    return PurePosixPath(path.relative_to(root)).as_posix()


def _parse_entry(entry_format, path, root, entries, errors):
    relative = _relative(path, root)
    try:
        entries.append(entry_format.parse(path, relative))
    except BankFileInvalid as exc:
        errors.extend(BankError(relative, reason) for reason in exc.reasons)


def _duplicate_slug_errors(entries):
    seen = {}
    errors = []
    for entry in entries:
        if entry.slug in seen:
            errors.append(BankError(entry.path, f"duplicate slug '{entry.slug}' (also used by {seen[entry.slug]})"))
        else:
            seen[entry.slug] = entry.path
    return errors
