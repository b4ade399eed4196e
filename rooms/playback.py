"""The room's code as it evolved, for the report's slider: its step log replayed on the server.

The snapshots take the shape teams/static/teams/playback.js reads (the team reports' playback),
so the report reuses that script: [{"question": n, "frames": [{"t": seconds, "code": text,
"paste": false}]}]. A room keeps no pastes apart from other edits, so no frame is a paste."""

from .changes import apply_changes

#: At most this many snapshots per track: one per step, sampled evenly beyond it, so a long
#: interview's report stays a few hundred kilobytes and the slider keeps a usable resolution.
MAX_FRAMES = 300


def sampled_versions(count, limit):
    """The versions 0..count (the start and after each step) to show: all of them while they fit
    in `limit`, else `limit` spread evenly, always with the first and the last."""
    if count + 1 <= limit:
        return set(range(count + 1))
    return {round(index * count / (limit - 1)) for index in range(limit)}


def frames(room, start_text, first_version=0, last_version=None):
    """The snapshots of `room`'s document from `first_version` (where it was `start_text`) to
    `last_version` (the room's version when None), each with its seconds since the room opened."""
    last_version = room.version if last_version is None else last_version
    keep = {first_version + offset for offset in sampled_versions(last_version - first_version, MAX_FRAMES)}
    text = start_text
    snapshots = [{"t": 0, "code": text, "paste": False}] if first_version in keep else []
    steps = room.steps.filter(version__gte=first_version, version__lt=last_version).order_by("version")
    for step in steps.only("version", "changes", "created_at").iterator():
        text = apply_changes(text, step.changes)
        if step.version + 1 in keep:
            seconds = int((step.created_at - room.created_at).total_seconds())
            snapshots.append({"t": seconds, "code": text, "paste": False})
    return snapshots


def playback(room, part, track):
    """One of the room's questions (a part from rooms.services.questions_of) as the track named
    `track`: replayed from its exercise's starter over its versions of the step log."""
    return {
        "question": track,
        "frames": frames(room, part["exercise"].starter_code, part["first_version"], part["last_version"]),
    }
