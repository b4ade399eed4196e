"""The terminal's view of a graded submission: what the page shows, in text."""

import unicodedata

from hotpath_cli import main, render
from hotpath_cli.errors import CliError

PROFILE = {
    "status": "done",
    "reason": "",
    "size": 6_400_000,
    "seconds": 0.03,
    "traced_s": 0.02,
    "functions": [{"function": "transform", "line": 3, "calls": 1, "own_s": 0.02, "cumulative_s": 0.02}],
    "lines": [
        {"line": 4, "code": "y = x * 2.0", "hits": 1, "seconds": 0.015},
        {"line": 5, "code": "y += 1.0", "hits": 1, "seconds": 0.005},
    ],
}


def graded(**report):
    return {
        "id": 7,
        "exercise": "python-loop-to-numpy",
        "exercise_version": 3,
        "purpose": "practice",
        "is_final": True,
        "verdict": "accepted",
        "verdict_label": "Accepted",
        "message": "Correct on all 3 sizes.",
        "speedup": 111.0,
        "speedup_ci": [104.0, 118.0],
        "peak_memory_bytes": 2 * 1024**2,
        "reference_peak_memory_bytes": 2 * 1024**2,
        "sizes": [],
        "web_url": "http://127.0.0.1:8000/submissions/7/",
        "report": report,
    }


def test_the_hints_and_the_line_profile_follow_the_figures():
    text = render.format_submission(
        graded(hint="Well done.", roofline={"hint": "At size 6,400,000 you are at 12%."}, profile=PROFILE)
    )
    assert "\nHint: Well done.\n" in text and "\nHint: At size 6,400,000 you are at 12%.\n" in text
    assert "Where the time went (one untimed, profiled call on the input of size 6,400,000):" in text
    table = text.split("size 6,400,000):\n")[1].splitlines()
    assert table[0].split() == ["line", "code", "runs", "time", "share"]
    assert table[2].split() == ["4", "y", "=", "x", "*", "2.0", "1", "15", "ms", "75%"]
    assert table[3].split() == ["5", "y", "+=", "1.0", "1", "5", "ms", "25%"]
    assert text.endswith("\nhttp://127.0.0.1:8000/submissions/7/")


def test_no_profile_or_hint_sections_without_them():
    skipped = {**PROFILE, "status": "skipped", "lines": []}
    for report in ({}, {"profile": skipped}, {"profile": {**PROFILE, "lines": []}}, {"hint": "", "roofline": None}):
        text = render.format_submission(graded(**report))
        assert "Where the time went" not in text and "Hint:" not in text


def test_a_share_needs_the_traced_time():
    text = render.format_submission(graded(profile={**PROFILE, "traced_s": None}))
    assert text.split("size 6,400,000):\n")[1].splitlines()[2].split()[-1] == render.MISSING


def test_the_readme_states_limits_in_binary_units():
    exercise = {
        "title": "Loop",
        "version": 1,
        "entry_point": "transform",
        "target": "cpu",
        "allowed_imports": ["numpy"],
        "sizes": [100],
        "check_sizes": [10],
        "prompt": "Do it.",
        "hints": "",
        "web_url": "http://x/",
        "limits": {"time_s": 60, "memory_mb": 1024, "processes": 32, "output_kb": 256, "disk_mb": 64},
    }
    assert (
        "- Limits: 60 s, 1024 MiB memory, 32 processes, 256 KiB output, 64 MiB scratch disk."
        in render.exercise_readme(exercise)
    )


def test_a_failure_shows_the_traceback_the_call_and_both_answers():
    wrong = {
        "verdict": "wrong_answer",
        "verdict_label": "Wrong answer",
        "message": "Wrong answer on a tiny input (size 3).",
        "speedup": None,
        "peak_memory_bytes": None,
    }
    failure = {
        "arguments": ["x = np.array([1.0, 2.0, 3.0], dtype=np.float64)", "w = 2"],
        "arguments_complete": True,
        "expected_answer": "np.array([1.5, 2.5], dtype=np.float64)",
        "got_answer": "np.array([1.0, 1.5], dtype=np.float64)",
    }
    text = render.format_submission({**graded(failure=failure), **wrong})
    assert (
        "Wrong answer on a tiny input (size 3).\n\nThe call that failed:\n    x = np.array([1.0, 2.0, 3.0], dtype=np.float64)\n"
        "    w = 2\n\nexpected: np.array([1.5, 2.5], dtype=np.float64)\ngot:      np.array([1.0, 1.5], dtype=np.float64)\n"
    ) in text

    crashed = {
        "traceback": "Traceback (most recent call last):\nValueError: zero-size array\n",
        "arguments": ["x = a float64 array of shape (100000,) (too large to list)"],
        "arguments_complete": False,
    }
    text = render.format_submission(
        {**graded(failure=crashed), **wrong, "verdict": "runtime_error", "message": "Your code raised ValueError."}
    )
    assert "Your code raised ValueError.\n\nTraceback (most recent call last):\nValueError: zero-size array\n\n" in text
    assert "The call that failed (arrays this large are described, not listed):\n    x = a float64 array" in text
    assert "expected:" not in render.format_submission(graded())


def test_the_comparison_with_the_previous_answer_follows_the_speedup():
    def line(against):
        text = render.format_submission({**graded(), "against_previous": against})
        return [row for row in text.splitlines() if row.startswith("Against")]

    assert line({"previous": 5, "ratio": 2.0, "outcome": "faster"}) == [
        "Against your previous answer (#5): 2x faster; the 95% intervals do not overlap."
    ]
    assert line({"previous": 5, "ratio": 0.8, "outcome": "slower"}) == [
        "Against your previous answer (#5): 1.25x slower; the 95% intervals do not overlap."
    ]
    assert line({"previous": 5, "ratio": 1.04, "outcome": "unclear"}) == [
        "Against your previous answer (#5): no difference this grading can tell (1.04x, but the 95% intervals overlap)."
    ]
    assert line({"previous": 5, "ratio": 1.56, "outcome": "same_code"}) == [
        "Against your previous answer (#5): the same code, read 1.56x apart: the machine's noise, not a change of yours."
    ]
    assert line(None) == []


def test_a_board_says_when_a_figure_is_the_middle_of_several_gradings():
    def row(rank, name, speedup, gradings, is_you=False):
        return {
            "rank": rank,
            "name": name,
            "speedup": speedup,
            "gradings": gradings,
            "peak_memory_bytes": 2**20,
            "exercise_version": 1,
            "achieved_at": "2026-12-05T03:00:00Z",
            "is_you": is_you,
        }

    board = {
        "exercise": "python-loop-to-numpy",
        "hardware": "cpu",
        "hardware_available": ["cpu"],
        "count": 2,
        "page": 1,
        "pages": 1,
        "results": [row(1, "Pat", 40.0, 1), row(2, "Anonymous", 30.0, 3, is_you=True)],
    }
    board["you"] = board["results"][1]

    text = render.format_board(board)
    assert "30x (middle of 3)" in text and "40x (middle" not in text
    assert text.endswith(
        "Your place: #2 at 30x (middle of 3).\nThe same code graded more than once counts by its middle grading."
    )
    board["results"][1]["gradings"] = 1
    assert "middle" not in render.format_board(board)


# -- issue 29, finding 3: what the server sends reaches the terminal without its escapes ------

#: A display name stored before the server refused control characters: clear the screen, retitle
#: the window, turn the text right to left, and a carriage return that overwrites the line.
HOSTILE = "\x1b[2J\x1b]0;owned\x07Pat\u202e\r\x9b31m"


def board_with(name):
    result = {
        "rank": 1,
        "name": name,
        "speedup": 40.0,
        "gradings": 1,
        "peak_memory_bytes": 2**20,
        "exercise_version": 1,
        "achieved_at": "2026-12-05T03:00:00Z",
        "is_you": False,
    }
    return {
        "exercise": "loop",
        "hardware": "cpu",
        "hardware_available": ["cpu"],
        "count": 1,
        "page": 1,
        "pages": 1,
        "results": [result],
        "you": None,
    }


class FakeApi:
    def __init__(self, board):
        self.board = board

    def get(self, path, **params):
        if isinstance(self.board, Exception):
            raise self.board
        return self.board


def run_leaderboard(monkeypatch, capsys, answer):
    monkeypatch.setattr(main, "api_from_config", lambda: FakeApi(answer))
    status = main.main(["leaderboard", "loop"])
    return status, capsys.readouterr()


def test_the_leaderboard_prints_no_control_characters_the_server_sent(monkeypatch, capsys):
    status, printed = run_leaderboard(monkeypatch, capsys, board_with(HOSTILE))
    assert status == 0
    assert "[2J]0;ownedPat31m" in printed.out
    assert not [ch for ch in printed.out if ch != "\n" and unicodedata.category(ch).startswith("C")]


def test_a_refusal_the_server_wrote_is_printed_without_its_escapes(monkeypatch, capsys):
    status, printed = run_leaderboard(monkeypatch, capsys, CliError(f"No such exercise {HOSTILE}"))
    assert status == 2
    assert printed.err == "hotpath: No such exercise [2J]0;ownedPat31m\n"


def test_printable_keeps_line_breaks_and_every_printable_letter():
    assert render.printable("Zoë 李\nnext line") == "Zoë 李\nnext line"
    assert render.printable(HOSTILE) == "[2J]0;ownedPat31m"  # what is left is text, not a command


# -- issue 30: ranks that admit ties ------------------------------------------------------


def test_the_leaderboard_marks_shared_ranks(monkeypatch, capsys):
    board = board_with("Pat")
    second = {**board["results"][0], "name": "Sam", "speedup": 39.0}
    board["results"] = [{**board["results"][0], "tied": True}, {**second, "tied": True}]
    board["count"] = 2
    board["you"] = {**second, "tied": True, "is_you": True}
    status, printed = run_leaderboard(monkeypatch, capsys, board)
    assert status == 0
    rows = [line.split()[0] for line in printed.out.splitlines() if "Pat" in line or "Sam" in line]
    assert rows == ["=1", "=1"]
    assert "Your place: =1 at" in printed.out
    assert "=N: 95% intervals overlap, so these cannot be told apart" in printed.out


def test_an_older_server_without_ties_still_prints(monkeypatch, capsys):
    status, printed = run_leaderboard(monkeypatch, capsys, board_with("Pat"))
    assert status == 0 and "=1" not in printed.out
