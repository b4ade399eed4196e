"""Parsing and validating one question's Markdown: front matter (every field
checked, every problem listed) and its body sections."""

import json
import keyword
import math

import frontmatter
import yaml
from markdown_it import MarkdownIt

from grader.work import BadFormula, check_work

from ..models import Difficulty, Kind, Visibility
from ..text import unix_newlines
from .canonical import plain_number
from .entries import BankFileInvalid
from .schema import (
    ALL_CPUS,
    COMMON_KEYS,
    EXERCISE_FILES,
    EXERCISE_MARKDOWN,
    GRADED_ON,
    KIND_KEYS,
    LIMIT_KEYS,
    MAX_CPUS,
    MODULE_PATTERN,
    REQUIRED_CODING_KEYS,
    REQUIRED_SECTIONS,
    RESERVED_SLUGS,
    RUBRIC_SIZE,
    SECTIONS,
    SLUG_PATTERN,
    TARGETS,
    TOLERANCE_KEYS,
    TOPIC_FOLDERS,
)

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
            reasons.append(
                f"'tolerance' must be a relative tolerance in (0, 1], e.g. 0.05 for 5%; got {meta['tolerance']!r}"
            )
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
            numbers[name] = plain_number(number) if positive else number
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
        if not isinstance(imports, list) or not all(
            isinstance(name, str) and MODULE_PATTERN.match(name) for name in imports
        ):
            reasons.append(f"'allowed_imports' must be a list of module names, got {imports!r}")
        else:
            spec["allowed_imports"] = list(imports)
    if "graded_on" in meta:
        graded_on = meta["graded_on"]
        if not isinstance(graded_on, list) or not graded_on or not set(graded_on) <= set(GRADED_ON):
            reasons.append(f"'graded_on' must be a non-empty list from {', '.join(GRADED_ON)}, got {graded_on!r}")
        else:
            spec["graded_on"] = list(graded_on)
    if "cpus" in meta:
        cpus = meta["cpus"]
        if cpus != ALL_CPUS and not (_is_positive_int(cpus) and cpus <= MAX_CPUS):
            reasons.append(f"'cpus' must be a whole number from 1 to {MAX_CPUS} or {ALL_CPUS!r}, got {cpus!r}")
        elif meta.get("target", "cpu") != "cpu":
            reasons.append("'cpus' applies to CPU exercises only (a GPU exercise is graded on one CPU)")
        else:
            spec["cpus"] = cpus
    if "work" in meta:
        sizes = [*spec.get("sizes", []), *spec.get("check_sizes", [])]
        try:
            spec["work"] = check_work(meta["work"], sizes)
        except BadFormula as exc:
            reasons.append(f"'work': {exc}")
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
