"""The question bank on disk <-> Question / ExerciseVersion rows.

Files under questions/bank/ are the source of truth. `load_bank` reads them all,
validates everything first and writes nothing unless every file is good (one
transaction). It is idempotent: each entry's canonical text is hashed, and a row
whose hash and path match is left alone. A question whose file disappeared is
retired, never deleted (attempts and submissions keep pointing at it); a file
that comes back restores it. Coding exercises get a new ExerciseVersion only
when the exercise itself (spec or code) changes.

`dump_bank` writes rows back out in the canonical form, so load -> dump -> load
is lossless and a second dump is byte-identical.

Entry formats live in a small registry (ENTRY_FORMATS): a format says which
paths it claims (a Markdown file, a folder with question.md), how to parse one
and how to write one. Adding a format means adding a class there.
"""
import hashlib
import json
import keyword
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import frontmatter
import yaml
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from markdown_it import MarkdownIt

from . import hooks
from .models import Difficulty, ExerciseVersion, Kind, Question, Visibility
from .text import unix_newlines

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Paths under /questions/ that are pages, not questions.
RESERVED_SLUGS = frozenset({"progress", "preview"})
MODULE_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
RUBRIC_SIZE = (4, 8)

# Front matter, in the order dump writes it.
COMMON_KEYS = ("slug", "title", "topic", "tags", "difficulty", "kind")
KIND_KEYS = {
    Kind.CONCEPT: ("rubric",),
    Kind.NUMERIC: ("answer", "unit", "tolerance"),
    Kind.CODING: (
        "target", "entry_point", "sizes", "check_sizes", "edge_sizes", "tolerance",
        "repeats", "limits", "allowed_imports", "graded_on",
    ),
}
REQUIRED_CODING_KEYS = ("target", "entry_point", "sizes", "tolerance", "limits", "allowed_imports")
LIMIT_KEYS = ("time_s", "memory_mb", "processes", "output_kb", "disk_mb")
TOLERANCE_KEYS = ("rtol", "atol")
GRADED_ON = ("time", "memory")
TARGETS = ("cpu", "gpu")

# Body sections: model field -> heading. Written in this order.
SECTIONS = {"prompt": "Prompt", "sample_answer": "Sample answer", "explanation": "Explanation", "hints": "Hints"}
REQUIRED_SECTIONS = {
    Kind.CONCEPT: ("prompt", "sample_answer"),
    Kind.NUMERIC: ("prompt", "sample_answer", "explanation"),
    Kind.CODING: ("prompt", "sample_answer"),
}

EXERCISE_FILES = {
    "reference.py": "reference_code",
    "starter.py": "starter_code",
    "inputs.py": "inputs_code",
    "solution.py": "solution_code",
    "check.py": "check_code",
}
OPTIONAL_EXERCISE_FILES = ("check.py",)
EXERCISE_MARKDOWN = "question.md"

# The one list of topics (every bank entry names one; browsing and progress group by
# topic) and the folder dump puts a question in when it was written in the admin.
TOPIC_FOLDERS = {
    "Algorithmic Complexity & Code-Level Optimization": "algorithmic-complexity",
    "Technical Foundation and Self Assessment": "technical-foundation",
    "Performance Cost Optimization & Resource Efficiency": "cost-efficiency",
}


def default_bank_dir():
    return Path(settings.BASE_DIR) / "questions" / "bank"


@dataclass(frozen=True)
class BankError:
    path: str
    reason: str

    def __str__(self):
        return f"{self.path}: {self.reason}"


class BankFileInvalid(Exception):
    """One bank entry is bad; `reasons` lists everything wrong with it."""

    def __init__(self, reasons):
        super().__init__("; ".join(reasons))
        self.reasons = list(reasons)


class BankLoadError(Exception):
    """The bank was rejected as a whole; nothing was written."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} problem(s) in the question bank; nothing was loaded")
        self.errors = list(errors)


@dataclass
class BankEntry:
    """One parsed question: the Question field values, and for a coding exercise
    its spec and code files."""

    path: str  # relative to the bank root, POSIX style
    fields: dict
    spec: dict | None = None
    files: dict | None = None

    @property
    def slug(self):
        return self.fields["slug"]

    @property
    def content_hash(self):
        return _sha256({"markdown": render_question_markdown(self.fields, self.spec), "files": self.files})

    @property
    def exercise_hash(self):
        if self.spec is None:
            return None
        return exercise_content_hash(self.spec, self.files)


def exercise_content_hash(spec, files):
    return _sha256({"spec": spec, "files": files})


def _sha256(data):
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


# ---------------------------------------------------------------------------
# Canonical text: one function writes it, both the hash and dump use it.


class _FlowList(list):
    pass


class _FlowDict(dict):
    pass


class _BankDumper(yaml.SafeDumper):
    def increase_indent(self, flow=False, indentless=False):
        # Indent list items under their key ("rubric:\n  - ..."), as people write them.
        return super().increase_indent(flow, False)


_BankDumper.add_representer(_FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True))
_BankDumper.add_representer(_FlowDict, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True))


def _plain_number(value):
    """31.0 is written as 31, so dumped files read like hand-written ones."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


def canonical_front_matter(fields, spec):
    front = {key: fields[key] for key in COMMON_KEYS}
    front["tags"] = _FlowList(fields["tags"])
    kind = fields["kind"]
    if kind == Kind.CONCEPT:
        front["rubric"] = list(fields["rubric"])
    elif kind == Kind.NUMERIC:
        front["answer"] = _plain_number(fields["answer_value"])
        front["unit"] = fields["answer_unit"]
        front["tolerance"] = fields["tolerance"]
    elif kind == Kind.CODING:
        for key in KIND_KEYS[Kind.CODING]:
            if key in spec:
                value = spec[key]
                front[key] = _FlowDict(value) if isinstance(value, dict) else _FlowList(value) if isinstance(value, list) else value
    if fields.get("visibility", Visibility.PUBLIC) != Visibility.PUBLIC:
        front["visibility"] = fields["visibility"]  # written only when not public: public files keep their hash
    for key in sorted(fields["extra"]):
        front[key] = fields["extra"][key]
    return front


def render_question_markdown(fields, spec):
    front = yaml.dump(
        canonical_front_matter(fields, spec), Dumper=_BankDumper, sort_keys=False, allow_unicode=True, width=10_000
    )
    parts = [f"---\n{front}---\n"]
    for name, heading in SECTIONS.items():
        if fields[name]:
            parts.append(f"# {heading}\n\n{fields[name]}\n")
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# Parsing and validating one question's Markdown.

_section_parser = MarkdownIt("commonmark")
_HEADINGS = {heading.lower(): name for name, heading in SECTIONS.items()}


def split_sections(body):
    """Split the body at its top-level '# Heading' lines (found by a Markdown
    parser, so '# comments' inside fenced code stay put). Returns ({field: text}, reasons)."""
    lines = body.split("\n")
    tokens = _section_parser.parse(body)
    headings = [
        (token.map, tokens[index + 1].content.strip())
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == "h1" and token.level == 0
    ]
    reasons = []
    first_line = headings[0][0][0] if headings else len(lines)
    if "\n".join(lines[:first_line]).strip():
        reasons.append("text before the first section heading (sections are '# Prompt', '# Sample answer', ...)")
    sections = {}
    for position, ((start, end), title) in enumerate(headings):
        stop = headings[position + 1][0][0] if position + 1 < len(headings) else len(lines)
        name = _HEADINGS.get(" ".join(title.lower().split()))
        if name is None:
            known = ", ".join(f"'# {heading}'" for heading in SECTIONS.values())
            reasons.append(f"unknown section '# {title}' (expected {known})")
        elif name in sections:
            reasons.append(f"section '# {SECTIONS[name]}' appears twice")
        else:
            sections[name] = "\n".join(lines[end:stop]).strip()
    return sections, reasons


def _as_number(value):
    """YAML reads 1e9 (no dot) as a string; accept it as the number it says."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _is_positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _is_non_negative_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _non_empty_string(meta, key, reasons, max_length):
    value = meta.get(key)
    if key not in meta:
        reasons.append(f"missing key '{key}'")
    elif not isinstance(value, str) or not value.strip():
        reasons.append(f"'{key}' must be a non-empty string")
    elif len(value) > max_length:
        reasons.append(f"'{key}' is longer than {max_length} characters")
    else:
        return value.strip()
    return None


def _common_fields(meta, reasons):
    fields = {}
    slug = meta.get("slug")
    if "slug" not in meta:
        reasons.append("missing key 'slug'")
    elif not isinstance(slug, str) or not SLUG_PATTERN.match(slug) or len(slug) > 120:
        reasons.append(f"bad slug {slug!r}: use lowercase letters, digits and single hyphens ([a-z0-9-], at most 120)")
    elif slug in RESERVED_SLUGS:
        reasons.append(f"slug '{slug}' is reserved for a page; choose another")
    else:
        fields["slug"] = slug
    fields["title"] = _non_empty_string(meta, "title", reasons, 200)
    fields["topic"] = _non_empty_string(meta, "topic", reasons, 120)
    if fields["topic"] and fields["topic"] not in TOPIC_FOLDERS:
        reasons.append(f"unknown topic {fields['topic']!r} (expected one of: {'; '.join(TOPIC_FOLDERS)})")
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) and tag.strip() for tag in tags):
        reasons.append("'tags' must be a list of strings")
        tags = []
    fields["tags"] = [tag.strip() for tag in tags]
    difficulty = meta.get("difficulty")
    if "difficulty" not in meta:
        reasons.append("missing key 'difficulty'")
    elif difficulty not in Difficulty.values:
        reasons.append(f"bad difficulty {difficulty!r} (expected one of {', '.join(Difficulty.values)})")
    fields["difficulty"] = difficulty
    kind = meta.get("kind")
    if "kind" not in meta:
        reasons.append("missing key 'kind'")
    elif kind not in Kind.values:
        reasons.append(f"bad kind {kind!r} (expected one of {', '.join(Kind.values)})")
    fields["kind"] = kind
    return fields


def _concept_fields(meta, reasons):
    rubric = meta.get("rubric")
    low, high = RUBRIC_SIZE
    if "rubric" not in meta:
        reasons.append(f"missing key 'rubric' (a concept question needs {low} to {high} key points)")
        rubric = []
    elif not isinstance(rubric, list) or not all(isinstance(point, str) and point.strip() for point in rubric):
        reasons.append("'rubric' must be a list of non-empty strings")
        rubric = []
    elif not low <= len(rubric) <= high:
        reasons.append(f"rubric has {len(rubric)} items; a concept question needs {low} to {high}")
    return {"rubric": [point.strip() for point in rubric]}


def _numeric_fields(meta, reasons):
    fields = {}
    for key in KIND_KEYS[Kind.NUMERIC]:
        if key not in meta:
            reasons.append(f"missing key '{key}' (a numeric question needs answer, unit and tolerance)")
    if "answer" in meta:
        fields["answer_value"] = _as_number(meta["answer"])
        if fields["answer_value"] is None:
            reasons.append(f"'answer' must be a number, got {meta['answer']!r}")
    unit = meta.get("unit")
    if "unit" in meta and (not isinstance(unit, str) or not unit.strip() or len(unit) > 40):
        reasons.append("'unit' must be a non-empty string of at most 40 characters (e.g. bytes, ms, GB/s, comparisons)")
    fields["answer_unit"] = unit.strip() if isinstance(unit, str) else ""
    if "tolerance" in meta:
        fields["tolerance"] = _as_number(meta["tolerance"])
        if fields["tolerance"] is None or not 0 < fields["tolerance"] <= 1:
            reasons.append(f"'tolerance' must be a relative tolerance in (0, 1], e.g. 0.05 for 5%; got {meta['tolerance']!r}")
    return fields


def _int_list(spec, meta, key, reasons, *, allow_zero, allow_empty):
    values = meta[key]
    check = _is_non_negative_int if allow_zero else _is_positive_int
    if not isinstance(values, list) or not all(check(value) for value in values) or (not values and not allow_empty):
        what = "non-negative" if allow_zero else "positive"
        emptiness = "" if allow_empty else "non-empty "
        reasons.append(f"'{key}' must be a {emptiness}list of {what} integers, got {values!r}")
    else:
        spec[key] = list(values)


def _number_mapping(spec, meta, key, allowed, reasons, *, positive):
    values = meta[key]
    if not isinstance(values, dict) or not values or set(values) - set(allowed):
        reasons.append(f"'{key}' must be a mapping with keys from {', '.join(allowed)}, got {values!r}")
        return
    numbers = {}
    for name in allowed:
        if name not in values:
            continue
        number = _as_number(values[name])
        if number is None or number < 0 or (positive and number == 0):
            sign = "positive" if positive else "non-negative"
            reasons.append(f"'{key}.{name}' must be a {sign} number, got {values[name]!r}")
        else:
            numbers[name] = _plain_number(number) if positive else number
    spec[key] = numbers


def coding_spec(meta, reasons):
    """The exercise spec (ExerciseVersion.spec) from question.md's front matter."""
    spec = {}
    for key in REQUIRED_CODING_KEYS:
        if key not in meta:
            reasons.append(f"missing key '{key}' (a coding exercise needs {', '.join(REQUIRED_CODING_KEYS)})")
    if "target" in meta:
        if meta["target"] not in TARGETS:
            reasons.append(f"bad target {meta['target']!r} (expected cpu or gpu)")
        else:
            spec["target"] = meta["target"]
    if "entry_point" in meta:
        entry_point = meta["entry_point"]
        if not isinstance(entry_point, str) or not entry_point.isidentifier() or keyword.iskeyword(entry_point):
            reasons.append(f"'entry_point' must be a Python identifier, got {entry_point!r}")
        else:
            spec["entry_point"] = entry_point
    if "sizes" in meta:
        _int_list(spec, meta, "sizes", reasons, allow_zero=False, allow_empty=False)
    if "check_sizes" in meta:
        _int_list(spec, meta, "check_sizes", reasons, allow_zero=False, allow_empty=False)
    if "edge_sizes" in meta:
        _int_list(spec, meta, "edge_sizes", reasons, allow_zero=True, allow_empty=True)
    if "tolerance" in meta:
        _number_mapping(spec, meta, "tolerance", TOLERANCE_KEYS, reasons, positive=False)
    if "repeats" in meta:
        if not _is_positive_int(meta["repeats"]):
            reasons.append(f"'repeats' must be a positive integer, got {meta['repeats']!r}")
        else:
            spec["repeats"] = meta["repeats"]
    if "limits" in meta:
        _number_mapping(spec, meta, "limits", LIMIT_KEYS, reasons, positive=True)
    if "allowed_imports" in meta:
        imports = meta["allowed_imports"]
        if not isinstance(imports, list) or not all(isinstance(name, str) and MODULE_PATTERN.match(name) for name in imports):
            reasons.append(f"'allowed_imports' must be a list of module names, got {imports!r}")
        else:
            spec["allowed_imports"] = list(imports)
    if "graded_on" in meta:
        graded_on = meta["graded_on"]
        if not isinstance(graded_on, list) or not graded_on or not set(graded_on) <= set(GRADED_ON):
            reasons.append(f"'graded_on' must be a non-empty list from {', '.join(GRADED_ON)}, got {graded_on!r}")
        else:
            spec["graded_on"] = list(graded_on)
    return {key: spec[key] for key in KIND_KEYS[Kind.CODING] if key in spec}


def _visibility(meta, reasons):
    visibility = meta.get("visibility", Visibility.PUBLIC)
    if visibility not in Visibility.values:
        reasons.append(f"bad visibility {visibility!r} (expected one of {', '.join(Visibility.values)})")
    return visibility


def _extra_keys(meta, kind, reasons):
    own = {*COMMON_KEYS, "visibility", *KIND_KEYS.get(kind, ())}
    extra = {}
    for key in sorted(set(meta) - own):
        other_kinds = [other for other, keys in KIND_KEYS.items() if key in keys]
        if other_kinds:
            reasons.append(f"key '{key}' belongs to {'/'.join(other_kinds)} questions, not {kind}")
            continue
        try:
            json.dumps(meta[key])
        except (TypeError, ValueError):
            reasons.append(f"key '{key}' must hold plain data (text, numbers, lists, mappings), got {meta[key]!r}")
            continue
        extra[key] = meta[key]
    return extra


def parse_question_markdown(text, *, in_folder):
    """Markdown with front matter -> (Question field values, exercise spec or None).
    Raises BankFileInvalid listing every problem found."""
    text = unix_newlines(text).lstrip("\ufeff")
    if not text.startswith("---"):
        raise BankFileInvalid(["missing front matter (the file must start with a '---' YAML block)"])
    try:
        post = frontmatter.loads(text)
    except yaml.YAMLError as exc:
        raise BankFileInvalid([f"YAML error in front matter: {' '.join(str(exc).split())}"]) from None
    meta = post.metadata
    if not meta:
        raise BankFileInvalid(["front matter is empty or not a mapping of keys"])

    reasons = []
    fields = _common_fields(meta, reasons)
    kind = fields["kind"]
    spec = None
    if kind == Kind.CODING and not in_folder:
        reasons.append(f"a coding exercise is a folder holding {EXERCISE_MARKDOWN}, {', '.join(EXERCISE_FILES)}")
    elif in_folder and kind in Kind.values and kind != Kind.CODING:
        reasons.append(f"{EXERCISE_MARKDOWN} in an exercise folder must have kind: coding, not {kind}")
    fields.update({"rubric": [], "answer_value": None, "answer_unit": "", "tolerance": None})
    if kind == Kind.CONCEPT:
        fields.update(_concept_fields(meta, reasons))
    elif kind == Kind.NUMERIC:
        fields.update(_numeric_fields(meta, reasons))
    elif kind == Kind.CODING:
        spec = coding_spec(meta, reasons)
    fields["visibility"] = _visibility(meta, reasons)
    fields["extra"] = _extra_keys(meta, kind, reasons)

    sections, section_reasons = split_sections(post.content)
    reasons.extend(section_reasons)
    for name in REQUIRED_SECTIONS.get(kind, ("prompt",)):
        if name not in sections:
            reasons.append(f"missing section '# {SECTIONS[name]}'")
        elif not sections[name]:
            reasons.append(f"section '# {SECTIONS[name]}' is empty")
    for name in SECTIONS:
        fields[name] = sections.get(name, "")
    if reasons:
        raise BankFileInvalid(reasons)
    return fields, spec


# ---------------------------------------------------------------------------
# Entry formats: the registry.


def _read_text(path):
    try:
        return unix_newlines(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise BankFileInvalid([f"{path.name} is not UTF-8 text"]) from None


def _check_name_matches_slug(name, fields):
    slug = fields.get("slug")
    if slug and name != slug:
        raise BankFileInvalid([f"slug '{slug}' does not match the name '{name}' (name the file or folder after the slug)"])


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
            reasons.append(f"unexpected file(s) {', '.join(unexpected)} (an exercise folder holds {EXERCISE_MARKDOWN}, {', '.join(EXERCISE_FILES)})")
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
                errors.append(BankError(_relative(child, root), f"Python file outside an exercise folder (no {EXERCISE_MARKDOWN} beside it)"))
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


# ---------------------------------------------------------------------------
# Loading into the database.


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
