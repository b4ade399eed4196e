"""Tracks: named learning paths through the bank, read from `tracks.yaml` at the bank's
root. A list of mappings, in the order the site lists them:

    - slug: cpu-fundamentals
      name: CPU fundamentals
      description: Markdown, one paragraph.
      prerequisites: []          # slugs of tracks listed above this one
      questions: [slug, ...]     # the order to practise them in

A bank without the file has no tracks. Every problem is a BankError naming the track."""

from dataclasses import dataclass
from pathlib import Path

import yaml

from .entries import BankError
from .schema import SLUG_PATTERN

TRACKS_FILE = "tracks.yaml"
TRACK_KEYS = {"slug", "name", "description", "prerequisites", "questions"}


@dataclass(frozen=True)
class TrackEntry:
    slug: str
    name: str
    description: str
    prerequisites: tuple
    questions: tuple


def read_tracks(root, known_slugs):
    """(tracks, errors) from `root`/tracks.yaml; `known_slugs` are the question slugs this
    load holds. A question slug not among them, a prerequisite not listed above its track
    (so there are no cycles) or a malformed track is an error; ([], []) without the file."""
    path = Path(root) / TRACKS_FILE
    if not path.is_file():
        return [], []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        return [], [BankError(TRACKS_FILE, f"not valid YAML: {exc}")]
    if not isinstance(data, list):
        return [], [BankError(TRACKS_FILE, "must be a list of tracks")]
    tracks, errors, seen = [], [], set()
    for index, item in enumerate(data, start=1):
        reasons = _track_problems(item, known_slugs, seen)
        label = item.get("slug") if isinstance(item, dict) and item.get("slug") else f"#{index}"
        errors.extend(BankError(TRACKS_FILE, f"track {label}: {reason}") for reason in reasons)
        if isinstance(item, dict) and isinstance(item.get("slug"), str):
            seen.add(item["slug"])  # its dependants are judged on their own, not named again for its faults
        if not reasons:
            tracks.append(
                TrackEntry(
                    slug=item["slug"],
                    name=item["name"],
                    description=item.get("description", ""),
                    prerequisites=tuple(item.get("prerequisites") or ()),
                    questions=tuple(item["questions"]),
                )
            )
    return tracks, errors


def _track_problems(item, known_slugs, earlier_tracks):
    """Everything wrong with one track, as reasons for people."""
    if not isinstance(item, dict):
        return ["must be a mapping with slug, name and questions"]
    allowed = ", ".join(sorted(TRACK_KEYS))
    problems = [f"unknown key {key!r} (allowed: {allowed})" for key in sorted(set(item) - TRACK_KEYS)]
    slug = item.get("slug")
    if not isinstance(slug, str) or not SLUG_PATTERN.match(slug):
        problems.append("slug must be lowercase letters, digits and hyphens")
    elif slug in earlier_tracks:
        problems.append("the slug is used by an earlier track")
    if not isinstance(item.get("name"), str) or not item.get("name", "").strip():
        problems.append("name is required")
    if not isinstance(item.get("description", ""), str):
        problems.append("description must be text")
    prerequisites = item.get("prerequisites") or []
    if not isinstance(prerequisites, list):
        problems.append("prerequisites must be a list of track slugs")
    else:
        unknown = [name for name in prerequisites if name not in earlier_tracks]
        problems += [f"prerequisite {name!r} is not a track listed above this one" for name in unknown]
    questions = item.get("questions")
    if not isinstance(questions, list) or not questions:
        problems.append("questions must be a non-empty list of question slugs")
    else:
        problems += [f"unknown question slug {name!r}" for name in questions if name not in known_slugs]
        repeated = sorted({name for name in questions if questions.count(name) > 1})
        problems += [f"question {name!r} is listed twice" for name in repeated]
    return problems


def write_tracks(root, tracks):
    """Write `tracks` (Track rows, in order) to `root`/tracks.yaml in the form read_tracks
    reads; nothing when there are none, as a bank without tracks has no file."""
    rows = [
        {
            "slug": track.slug,
            "name": track.name,
            "description": track.description,
            "prerequisites": list(track.prerequisites),
            "questions": list(track.question_slugs),
        }
        for track in tracks
    ]
    if rows:
        text = yaml.safe_dump(rows, sort_keys=False, allow_unicode=True, width=1000)
        (Path(root) / TRACKS_FILE).write_text(text, encoding="utf-8")
