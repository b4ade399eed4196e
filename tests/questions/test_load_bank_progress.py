"""load_bank says what it is doing while it grades new exercises (minutes on a first
start): exercise k of n and what is being done to it, one line per exercise at most,
on stderr (stdout keeps the summary that scripts read)."""

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    def isatty(self):
        return True


def load_bank_stderr(root, stderr, *options):
    call_command("load_bank", "--path", str(root), *options, stdout=io.StringIO(), stderr=stderr)
    return stderr.getvalue()


def test_each_exercise_graded_gets_one_line_saying_which_and_what(bank, fake_validation):
    fake_validation(ok=True)
    bank.concept()
    bank.exercise()
    bank.exercise(slug="square-more")
    lines = load_bank_stderr(bank.root, io.StringIO()).splitlines()
    grading = [line for line in lines if "grading" in line]
    assert grading == [
        "Exercise 1 of 2: square-more: grading the model solution against the reference in the sandbox",
        "Exercise 2 of 2: square-values: grading the model solution against the reference in the sandbox",
    ]
    assert lines[0] == f"Read {bank.root}: 3 entries."
    assert any(line.startswith("Graded 2 exercise(s) in ") for line in lines)
    assert len(lines) <= 2 + 3  # one per exercise, plus reading, grading time and saving


def test_on_a_terminal_the_status_line_is_rewritten_in_place(bank, fake_validation):
    fake_validation(ok=True)
    bank.exercise()
    bank.exercise(slug="square-more")
    text = load_bank_stderr(bank.root, Terminal())
    erase = "\r\x1b[K"  # back to the line's start, erase it
    assert (
        f"{erase}Exercise 1 of 2: square-more: grading" in text
        and f"{erase}Exercise 2 of 2: square-values: grading" in text
    )
    assert "grading the model solution against the reference in the sandbox\n" not in text  # never left as a line


def test_the_status_line_fits_a_narrow_terminal(bank, fake_validation, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    fake_validation(ok=True)
    bank.exercise()
    text = load_bank_stderr(bank.root, Terminal())
    assert "\r\x1b[KExercise 1 of 1: square-values: grading\r" in text  # 39 characters, then the next status


def test_a_failure_is_a_line_of_its_own_on_a_terminal(bank, fake_validation):
    fake_validation(ok=False, message="solution disagrees with reference")
    bank.concept()
    bank.exercise()
    text = load_bank_stderr(bank.root, Terminal())
    assert "Exercise 1 of 1: square-values: failed validation (named below)\n" in text


def test_a_failure_adds_no_line_in_a_log(bank, fake_validation):
    fake_validation(ok=False, message="solution disagrees with reference")
    bank.concept()
    bank.exercise()
    lines = load_bank_stderr(bank.root, io.StringIO()).splitlines()
    assert [line for line in lines if "square-values" in line] == [
        "Exercise 1 of 1: square-values: grading the model solution against the reference in the sandbox",
        "Not loaded: algorithmic-complexity/square-values: validation failed: solution disagrees with reference",
    ]


def test_unchanged_exercises_are_not_graded_and_say_nothing(bank, fake_validation):
    fake_validation(ok=True)
    bank.exercise()
    load_bank_stderr(bank.root, io.StringIO())
    assert "grading" not in load_bank_stderr(bank.root, io.StringIO())


def test_verbosity_0_is_quiet(bank, fake_validation):
    fake_validation(ok=True)
    bank.exercise()
    assert load_bank_stderr(bank.root, io.StringIO(), "-v", "0") == ""
