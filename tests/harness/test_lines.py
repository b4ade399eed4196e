"""The line timer of the profiled call (grader/harness/lines.py): which lines of
the learner's module the time went to, and nothing from any other file."""

import sys
import time

import pytest

from grader.harness import ipc, lines, sides

MODULE = """\
import json
import time


def helper(n):
    time.sleep(n)
    return n


def work(count):
    total = 0
    for i in range(count):
        total += i
    helper(0.05)
    try:
        raise ValueError("caught")
    except ValueError:
        total += 1
    return json.dumps(total)
"""


def load(tmp_path, source=MODULE):
    path = str(tmp_path / "solution.py")
    namespace = {}
    exec(compile(source, path, "exec"), namespace)
    return path, namespace


def line_of(text, source=MODULE):
    return source.splitlines().index(text) + 1


def test_each_line_gets_its_hits_and_time_and_a_calling_line_includes_the_call(tmp_path):
    path, namespace = load(tmp_path)
    timer = lines.LineTimer(path)
    assert timer.run(namespace["work"], 1000) == "499501"
    rows = {row["line"]: row for row in timer.rows(MODULE.splitlines())}
    assert list(rows) == sorted(rows)
    loop_body = rows[line_of("        total += i")]
    assert loop_body["hits"] == 1000 and loop_body["code"] == "total += i"
    assert rows[line_of("    for i in range(count):")]["hits"] == 1001
    sleeping = rows[line_of("    time.sleep(n)")]
    calling = rows[line_of("    helper(0.05)")]
    assert sleeping["hits"] == calling["hits"] == 1
    assert 0.05 <= sleeping["seconds"] <= calling["seconds"] < 1.0
    assert max(rows.values(), key=lambda row: row["seconds"]) in (sleeping, calling)
    assert rows[line_of("        total += 1")]["hits"] == 1  # after a caught exception, timing goes on
    assert line_of("def work(count):") not in rows  # a def line never runs as a line of the call


def test_only_the_given_file_is_traced_and_the_previous_trace_comes_back(tmp_path):
    path, namespace = load(tmp_path)
    seen = []

    def outer_trace(frame, event, arg):
        seen.append(event)

    sys.settrace(outer_trace)
    try:
        timer = lines.LineTimer(path)
        timer.run(namespace["work"], 3)
        restored = sys.gettrace()
    finally:
        sys.settrace(None)
    assert restored is outer_trace
    # Exactly the module's lines, each as often as it ran: json.dumps and time.sleep ran untraced.
    ran_once = [
        "    time.sleep(n)",
        "    return n",
        "    total = 0",
        "    helper(0.05)",
        "    try:",
        '        raise ValueError("caught")',
        "    except ValueError:",
        "        total += 1",
        "    return json.dumps(total)",
    ]
    expected = {line_of(text): 1 for text in ran_once} | {
        line_of("    for i in range(count):"): 4,
        line_of("        total += i"): 3,
    }
    assert dict(timer.hits) == expected


def test_the_slowest_lines_are_kept_in_line_order_and_long_lines_cut(tmp_path):
    body = "".join(f"    time.sleep({0.0005 * (k % 3)})  # {'x' * 150}\n" for k in range(lines.MAX_LINES + 10))
    source = f"import time\n\n\ndef many():\n{body}    return 1\n"
    path, namespace = load(tmp_path, source)
    timer = lines.LineTimer(path)
    timer.run(namespace["many"])
    rows = timer.rows(source.splitlines())
    assert len(rows) == lines.MAX_LINES
    assert [row["line"] for row in rows] == sorted(row["line"] for row in rows)
    kept = {row["line"] for row in rows}
    left_out = [line for line in timer.hits if line not in kept]
    assert max(timer.seconds_ns[line] for line in left_out) <= min(timer.seconds_ns[line] for line in kept)
    assert all(len(row["code"]) == lines.MAX_CODE_CHARS for row in rows if row["code"].startswith("time.sleep"))


def test_a_line_outside_the_source_has_no_text():
    timer = lines.LineTimer("solution.py")
    timer.hits[7] = 1
    assert timer.rows(["only one line"]) == [{"line": 7, "code": "", "hits": 1, "seconds": 0.0}]


def test_time_outside_the_module_counts_on_the_line_that_called_it(tmp_path):
    seconds = 0.02
    source = f"import time\n\n\ndef call():\n    time.sleep({seconds})\n    return 0\n"
    path, namespace = load(tmp_path, source)
    timer = lines.LineTimer(path)
    started = time.perf_counter()
    timer.run(namespace["call"])
    elapsed = time.perf_counter() - started
    assert seconds <= timer.seconds_ns[5] / 1e9 <= timer.total_ns / 1e9 <= elapsed


def good_row(**changes):
    return {"line": 3, "code": "y = x * 2.0", "hits": 1, "seconds": 0.01, **changes}


def test_the_supervisor_takes_the_runners_line_rows_only_well_formed_and_cut_to_size():
    reply = {"profile_lines": [good_row(code="y" * 500, hits=2)]}
    assert sides._profile_rows(reply, *sides.PROFILE_LINES) == [good_row(code="y" * lines.MAX_CODE_CHARS, hits=2)]
    assert (
        sides._profile_rows({"profile_lines": [good_row()] * lines.MAX_LINES}, *sides.PROFILE_LINES)
        == [good_row()] * lines.MAX_LINES
    )
    bad_replies = [
        {},
        {"profile_lines": "rows"},
        {"profile_lines": [good_row()] * (lines.MAX_LINES + 1)},
        {"profile_lines": ["row"]},
        {"profile_lines": [good_row(code=7)]},
        {"profile_lines": [good_row(hits=-1)]},
        {"profile_lines": [good_row(seconds="1")]},
        {"profile_lines": [good_row(line=None)]},
        {"profile_lines": [good_row(seconds=float("nan"))]},
    ]
    for reply in bad_replies:
        with pytest.raises(ipc.ProtocolError):
            sides._profile_rows(reply, *sides.PROFILE_LINES)


def test_the_traced_seconds_must_be_a_finite_number():
    assert sides._traced_seconds({"profile_traced_s": 0.25}) == 0.25
    for bad in (
        {},
        {"profile_traced_s": "1"},
        {"profile_traced_s": -1.0},
        {"profile_traced_s": float("inf")},
        {"profile_traced_s": float("nan")},
        {"profile_traced_s": True},
    ):
        with pytest.raises(ipc.ProtocolError):
            sides._traced_seconds(bad)
