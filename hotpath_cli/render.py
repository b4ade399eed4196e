"""Plain-text views of what the API returns."""

import unicodedata

from .errors import CliError

MISSING = "-"


def printable(text):
    """`text` without control characters (Unicode category C*: escape sequences, carriage
    returns, bidi overrides, zero-width marks), which a string from the server could use
    to rewrite the user's terminal; line breaks, the views' own layout, stay."""
    return "".join(char for char in text if char == "\n" or not unicodedata.category(char).startswith("C"))


def format_table(headers, rows):
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip() for row in [headers, *rows]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def _times(value):
    return MISSING if value is None else f"{value:.3g}x"


def _seconds(value):
    if value is None:
        return MISSING
    if value < 1e-3:
        return f"{value * 1e6:.3g} us"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


def _mib(value):
    return MISSING if value is None else f"{value / 1024**2:,.1f} MiB"


def format_submission(submission):
    if not submission["is_final"]:
        position = submission["progress"].get("queue_position")
        ahead = f" ({position} ahead)" if position is not None else ""
        return f"Submission #{submission['id']} on {submission['exercise']}: {submission['status']}{ahead}\n{submission['web_url']}"
    lines = [
        f"Submission #{submission['id']} on {submission['exercise']} (v{submission['exercise_version']}, {submission['purpose']})"
    ]
    lines.append(f"Verdict: {submission['verdict_label'] or submission['verdict']}")
    if submission.get("message"):
        lines.append(submission["message"].strip())
    lines += _custom_run_lines(submission.get("custom_input_result"))
    lines += _failure_lines((submission.get("report") or {}).get("failure") or {})
    if submission["speedup"] is not None:
        interval = submission["speedup_ci"]
        ci = f" (95% CI {_times(interval[0])} to {_times(interval[1])})" if interval else ""
        lines.append(f"Speedup: {_times(submission['speedup'])} against the reference{ci}")
    lines += _against_previous_lines(submission.get("against_previous"))
    if submission["peak_memory_bytes"] is not None:
        lines.append(
            f"Peak memory: {_mib(submission['peak_memory_bytes'])} (reference {_mib(submission['reference_peak_memory_bytes'])})"
        )
    sizes = [
        size for size in submission.get("sizes") or [] if size["time_s"] is not None
    ]  # a quick check times nothing
    if sizes:
        rows = [
            [
                f"{s['size']:,}",
                _seconds(s["time_s"]),
                _seconds(s["reference_time_s"]),
                _times(s["speedup"]),
                s["pairs"] or MISSING,
            ]
            for s in sizes
        ]
        lines.append("")
        lines.append(format_table(["size", "yours", "reference", "speedup", "pairs"], rows))
    report = submission.get("report") or {}
    for hint in (report.get("hint"), (report.get("roofline") or {}).get("hint")):
        if hint:
            lines += ["", f"Hint: {hint.strip()}"]
    lines += _profile_lines(report.get("profile") or {})
    lines.append("")
    lines.append(submission["web_url"])
    return "\n".join(lines)


def _against_previous_lines(against):
    """The page's "Against your previous answer", in one line."""
    if not against:
        return []
    ratio, previous = against["ratio"], f"#{against['previous']}"
    if against["outcome"] == "same_code":
        return [
            f"Against your previous answer ({previous}): the same code, read {_times(ratio)} apart: "
            "the machine's noise, not a change of yours."
        ]
    if against["outcome"] == "faster":
        return [f"Against your previous answer ({previous}): {_times(ratio)} faster; the 95% intervals do not overlap."]
    if against["outcome"] == "slower":
        return [
            f"Against your previous answer ({previous}): {_times(1 / ratio)} slower; the 95% intervals do not overlap."
        ]
    return [
        f"Against your previous answer ({previous}): no difference this grading can tell ({_times(ratio)}, "
        "but the 95% intervals overlap)."
    ]


def _custom_run_lines(run):
    """A run on the learner's own input: the input, both answers and both call times."""
    if not run:
        return []
    where = f"size {run['size']:,}, seed {run['seed']}" if run.get("size") is not None else "your arguments"
    lines = ["", f"Your input ({where}):", *(f"    {line}" for line in run.get("arguments") or [])]
    sides = [(label, run.get(role)) for label, role in (("yours", "submission"), ("reference", "reference"))]
    if all(side for _, side in sides):
        rows = [
            [label, _seconds(side["seconds"]), _seconds(side["first_call_s"]), side["answer"]["text"]]
            for label, side in sides
        ]
        lines += ["", format_table(["", "call", "first call", "answer"], rows)]
        lines.append("The answers match." if run.get("match") else "The answers differ.")
        lines.append("Times are one call each, the grader's transfers included: submit for a measured speedup.")
    return lines


def _failure_lines(failure):
    """What the page shows under "What went wrong", in text: the traceback, the call
    that failed (Python that rebuilds its arguments) and both whole answers."""
    lines = []
    if failure.get("traceback"):
        lines += ["", failure["traceback"].rstrip()]
    if failure.get("arguments"):
        described = "" if failure.get("arguments_complete") else " (arrays this large are described, not listed)"
        lines += ["", f"The call that failed{described}:", *(f"    {line}" for line in failure["arguments"])]
    if failure.get("expected_answer"):
        lines += ["", f"expected: {failure['expected_answer']}", f"got:      {failure['got_answer']}"]
    return lines


def _profile_lines(profile):
    """The profiled call's slowest lines as a table, as the page shows them."""
    rows = profile.get("lines") or []
    if profile.get("status") != "done" or not rows:
        return []
    traced = profile.get("traced_s")
    table = [
        [
            row["line"],
            row["code"],
            row["hits"],
            _seconds(row["seconds"]),
            f"{row['seconds'] / traced:.0%}" if traced else MISSING,
        ]
        for row in rows
    ]
    return [
        "",
        f"Where the time went (one untimed, profiled call on the input of size {profile['size']:,}):",
        format_table(["line", "code", "runs", "time", "share"], table),
    ]


def format_board(board):
    if board["hardware"] is None:
        return f"No accepted submissions on {board['exercise']} yet."
    if board["hardware"] not in board["hardware_available"]:
        raise CliError(
            f"No results on {board['hardware']!r}; boards exist for: {', '.join(board['hardware_available']) or 'none'}."
        )
    rows = [
        [
            _rank(row),
            row["name"] + (" (you)" if row["is_you"] else ""),
            _counted_speedup(row),
            _mib(row["peak_memory_bytes"]),
            f"v{row['exercise_version']}",
        ]
        for row in board["results"]
    ]
    text = [
        f"{board['exercise']} on {board['hardware']} (page {board['page']} of {board['pages']}, {board['count']} people)"
    ]
    text.append(format_table(["rank", "name", "speedup", "memory", "version"], rows))
    you = board.get("you")
    text.append(f"Your place: {_place(you)} at {_counted_speedup(you)}." if you else "You are not on this board yet.")
    if any(row["gradings"] > 1 for row in board["results"]):
        text.append("The same code graded more than once counts by its middle grading.")
    if any(row.get("tied") for row in board["results"]):
        text.append("=N: 95% intervals overlap, so these cannot be told apart and share a rank.")
    return "\n".join(text)


def _rank(row):
    """A board row's rank: '3', or '=2' when it shares the rank (a server before issue 30 sends no `tied`)."""
    return f"={row['rank']}" if row.get("tied") else row["rank"]


def _place(row):
    return _rank(row) if row.get("tied") else f"#{row['rank']}"


def _counted_speedup(row):
    """A board row's speedup, saying when it is the middle of several gradings of one program."""
    gradings = row["gradings"]
    return _times(row["speedup"]) + (f" (middle of {gradings})" if gradings > 1 else "")


def exercise_readme(exercise):
    limits = exercise["limits"]
    facts = [
        f"- Define `{exercise['entry_point']}`; it runs on the {exercise['target'].upper()}"
        + (f" and may import {', '.join(exercise['allowed_imports'])}." if exercise["allowed_imports"] else "."),
        f"- Benchmark sizes: {', '.join(map(str, exercise['sizes']))}; quick-check sizes: {', '.join(map(str, exercise['check_sizes'])) or MISSING}.",
        f"- Limits: {limits['time_s']:g} s, {limits['memory_mb']:g} MiB memory, {limits['processes']} processes, "
        f"{limits['output_kb']:g} KiB output, {limits['disk_mb']:g} MiB scratch disk.",
    ]
    parts = [f"# {exercise['title']} (v{exercise['version']})", "", *facts, "", exercise["prompt"].strip(), ""]
    if exercise["hints"].strip():
        parts += ["## Hints", "", exercise["hints"].strip(), ""]
    parts += [f"Web page: {exercise['web_url']}", ""]
    return "\n".join(parts)
