"""The report's playback: the step log replayed into snapshots, sampled, ending on the final text."""

import json

from django.urls import reverse

from rooms import playback, services

from .conftest import STARTER


def code_units(text):
    """The text's length as CodeMirror counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def type_lines(room, user, lines):
    """Push one step per line (each appended at the end, one with a deletion), as an editor would."""
    text = room.text
    for number, line in enumerate(lines):
        if number == 2:  # a replacement: the first character goes, a comment comes in
            changes = [[1, "#"], code_units(text) - 1]
            text = "#" + text[1:]
        else:
            changes = [code_units(text), [0, line, ""]]
            text += line + "\n"
        services.push(user, room, room.version, [{"clientID": "c", "changes": changes}])
        room.refresh_from_db()
    return text


def test_the_snapshots_rebuild_the_final_text_exactly(room, interviewer, candidate):
    final = type_lines(room, candidate, [f"# line {number} é😀" for number in range(6)])
    frames = playback.frames(room, STARTER)
    assert room.text == final
    assert [frame["code"] for frame in frames][0] == STARTER
    assert frames[-1]["code"] == final
    assert len(frames) == room.version + 1


def test_a_long_log_is_sampled_evenly_and_still_ends_on_the_final_text(room, candidate, monkeypatch):
    final = type_lines(room, candidate, [f"x{number}" for number in range(12)])
    assert playback.sampled_versions(12, 5) == {0, 3, 6, 9, 12}
    assert playback.sampled_versions(3, 5) == {0, 1, 2, 3}
    monkeypatch.setattr(playback, "MAX_FRAMES", 5)
    frames = playback.frames(room, STARTER)
    assert [frame["code"] for frame in (frames[0], frames[-1])] == [STARTER, final]
    assert len(frames) == 5


def test_the_report_carries_the_snapshots_for_the_slider(client, room, interviewer, candidate):
    final = type_lines(room, candidate, ["a", "b"])
    services.end(interviewer, room)
    client.force_login(candidate)
    page = client.get(reverse("rooms:report", args=[room.public_id])).content.decode()
    data = page.split('<script id="playback-frames" type="application/json">')[1].split("</script>")[0]
    tracks = json.loads(data)
    assert tracks[0]["question"] == "1-1" and tracks[0]["frames"][-1]["code"] == final
    assert 'class="playback-slider"' in page and "teams/playback.js" in page
