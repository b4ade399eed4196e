"""`hotpath check --size/--seed/--args`: a quick check on your own input, refused with the
server's words when it does not fit, and shown beside the reference's answer with both times."""

import json

import pytest

from hotpath_cli import render
from tests.api.conftest import fast_password_hashing, own_cache  # noqa: F401  (fixtures)
from tests.submissions.conftest import TINY_FILES, exercise_version, queued  # noqa: F401  (fixtures)
from tests.submissions.test_custom_input import RUN

from .test_cli import assert_clean_failure, home, hotpath, logged_in, token  # noqa: F401  (fixtures)


def test_the_run_is_shown_with_both_answers_and_times():
    submission = {
        "id": 9,
        "exercise": "tiny-scale",
        "exercise_version": 1,
        "purpose": "check",
        "is_final": True,
        "verdict": "accepted",
        "verdict_label": "Same answer as the reference on your input",
        "message": "Your code and the reference ran on size 5, seed 42: the answers match.",
        "speedup": None,
        "peak_memory_bytes": None,
        "sizes": [],
        "report": {},
        "custom_input_result": RUN,
        "web_url": "http://hotpath.test/submissions/9/",
    }
    text = render.format_submission(submission)
    assert "Your input (size 5, seed 42):" in text
    assert "    x = np.array([0.1, 0.2, 0.3, 0.4, 0.5], dtype=np.float64)" in text
    yours = next(line for line in text.splitlines() if line.startswith("yours"))
    reference = next(line for line in text.splitlines() if line.startswith("reference"))
    assert "40 us" in yours and "250 ms" in yours and "[1.3, 1.6, 1.9, 2.2, 2.5]" in yours
    assert "2.1 ms" in reference and "4 ms" in reference
    assert "The answers match." in text


def test_an_input_the_server_refuses_says_why(logged_in, exercise_version, queued, tmp_path):  # noqa: F811  (the fixtures imported above)
    (tmp_path / "mine.py").write_text(TINY_FILES["solution.py"])
    assert_clean_failure(logged_in("check", "tiny-scale", "mine.py", "--size", "101"), "at most 100")
    assert_clean_failure(logged_in("check", "tiny-scale", "mine.py", "--args", "[[1.0], 2]"), "takes 1 argument")


def test_arguments_that_are_not_json_never_leave(hotpath, tmp_path):  # noqa: F811  (the fixtures imported above)
    (tmp_path / "mine.py").write_text(TINY_FILES["solution.py"])
    assert_clean_failure(hotpath("check", "tiny-scale", "mine.py", "--args", "[[1.0"), "--args is not valid JSON")
    assert_clean_failure(hotpath("check", "tiny-scale", "mine.py", "--args", "[[NaN]]"), '"nan"')
    assert_clean_failure(hotpath("check", "tiny-scale", "mine.py", "--args", "[[1.0]]", "--size", "3"), "not both")


@pytest.mark.slow
def test_check_on_my_input_grades_for_real(logged_in, exercise_version, tmp_path, request):  # noqa: F811  (the fixtures imported above)
    """A real worker runs both sides on size 5, seed 42: the same answer, shown twice, with times."""
    request.getfixturevalue("grading_worker")
    (tmp_path / "fast.py").write_text(TINY_FILES["solution.py"])
    (tmp_path / "wrong.py").write_text("def scale(x):\n    return x * 3.0\n")
    ran = logged_in("check", "tiny-scale", "fast.py", "--size", "5", "--seed", "42", timeout=300)
    assert ran.returncode == 0, (ran.stdout, ran.stderr)
    assert "Your input (size 5, seed 42):" in ran.stdout and "The answers match." in ran.stdout
    answers = [line for line in ran.stdout.splitlines() if line.startswith(("yours", "reference"))]
    assert len(answers) == 2 and all("float64 array, shape (5,)" in line for line in answers)
    wrong = logged_in("check", "tiny-scale", "wrong.py", "--args", "[[1.0, 2.0]]", "--json", timeout=300)
    result = json.loads(wrong.stdout)["custom_input_result"]
    assert wrong.returncode == 1 and result["match"] is False
    assert result["reference"]["answer"]["head"] == ["4.0", "7.0"] and result["submission"]["answer"]["head"] == [
        "3.0",
        "6.0",
    ]
