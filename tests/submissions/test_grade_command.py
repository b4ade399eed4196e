"""manage.py grade: synchronous grading from the command line."""

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from .conftest import TINY_FILES, WRONG_ANSWER, needs_harness

pytestmark = [pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"), needs_harness]
BANK_SOLUTION = (
    Path(__file__).resolve().parents[2] / "questions/bank/algorithmic-complexity/python-loop-to-numpy/solution.py"
)


def run(*args):
    out = StringIO()
    call_command("grade", *args, stdout=out)
    return out.getvalue()


@pytest.mark.skipif(not BANK_SOLUTION.exists(), reason="the python-loop-to-numpy exercise is not in the bank")
def test_json_from_a_bank_folder_is_exactly_one_object(db):
    output = run("python-loop-to-numpy", str(BANK_SOLUTION), "--json", "--mode", "check")
    report = json.loads(output)  # fails on anything but one JSON document
    assert report["verdict"] == "accepted" and report["mode"] == "check"


def test_readable_report_from_the_database(exercise_version, tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_text(TINY_FILES["solution.py"])
    output = run("tiny-scale", str(answer))
    assert output.startswith("tiny-scale: accepted")
    assert "Speedup:" in output and "size" in output and "2000" in output and "8000" in output


def test_wrong_answer_json(exercise_version, tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_text(WRONG_ANSWER)
    report = json.loads(run("tiny-scale", str(answer), "--json"))
    assert report["verdict"] == "wrong_answer", report.get("message")


def test_clear_errors(db, tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_bytes(b"x = '\xff'\n")
    with pytest.raises(CommandError, match="UTF-8"):
        run("tiny-scale", str(answer))
    with pytest.raises(CommandError, match="Cannot read"):
        run("tiny-scale", str(tmp_path / "missing.py"))
    answer.write_text("x = 1\n")
    with pytest.raises(CommandError, match="No coding exercise"):
        run("no-such-exercise", str(answer))
