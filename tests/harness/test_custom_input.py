"""Run my input: a quick check on the learner's own size, seed or literal values, with both
answers and both call times in the report, and the input checked again by the judge."""

import math

import numpy as np
import pytest

from grader import grading
from grader.harness import custom_input, input_rules
from grader.harness.input_rules import Refused
from tests.grader.conftest import TINY_FILES, TINY_SPEC

from .jobs import VECTOR_SOLUTION, run_job

CHECK_SIZES = [100, 400]
TOP_K_INPUTS = """
import numpy as np

def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(size), 5
"""
TOP_K_REFERENCE = """
import numpy as np

def top_k(scores, k):
    if k < 0:
        raise ValueError("k must be 0 or more")
    return np.argsort(-scores, kind="stable")[:k].astype(np.int64)
"""
TOP_K_SOLUTION = """
import numpy as np

def top_k(scores, k):
    return np.argsort(-scores, kind="stable")[:k].astype(np.int64)
"""
TOP_K_WRONG = """
import numpy as np

def top_k(scores, k):
    return np.argsort(scores, kind="stable")[:k].astype(np.int64)
"""


def top_k_job(tmp_path, submission, custom):
    return run_job(
        tmp_path,
        submission,
        reference=TOP_K_REFERENCE,
        inputs=TOP_K_INPUTS,
        mode="check",
        entry_point="top_k",
        check_sizes=CHECK_SIZES,
        custom_input=custom,
    )


# -- the rules, as both the web side and the judge apply them ---------------------


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"size": 401}, "at most 400"),
        ({"size": -1}, "0 or more"),
        ({"size": True}, "whole number"),
        ({"seed": 2**32}, "from 0 to"),
        ({"size": 10, "args": [[1.0]]}, "not both"),
        ({}, "Give a size"),
        ({"sizes": 3}, "Unknown input field"),
        ({"args": [[1.0], 2, 3]}, "takes 2 arguments; your input gives 3"),
        ({"args": [list(range(10_001)), 1]}, "at most 10,000"),
        ({"args": [[[[[[1]]]]], 1]}, "nested more than 4"),
        ({"args": [{"a": 1}, 1]}, "cannot be (dict)"),
        ("size=3", "as an object"),
    ],
)
def test_clean_refuses_with_a_message(raw, words):
    with pytest.raises(Refused, match=None) as refused:
        input_rules.clean(raw, max_size=400, arity=2)
    assert words in str(refused.value)


def test_clean_gives_one_form():
    assert input_rules.clean({"size": 0}, 400) == {"size": 0, "seed": None, "args": None}
    assert input_rules.clean({"seed": 7}, 400) == {"size": None, "seed": 7, "args": None}
    assert input_rules.clean({"args": [[1, 2], 3]}, 400, arity=2)["args"] == [[1, 2], 3]
    filled = input_rules.sized_input({"size": None, "seed": None, "args": None}, CHECK_SIZES)
    assert filled["size"] == 400 and 0 <= filled["seed"] <= input_rules.MAX_SEED


def test_literal_values_take_the_exercises_types():
    sample = (np.zeros(3), np.zeros((2, 4), dtype=np.int32), 5, np.zeros(2, dtype=np.uint8), 0.5)
    names = ["x", "grid", "k", "text", "alpha"]
    x, grid, k, text, alpha = custom_input.literal_arguments(
        [[1, "nan", "-inf"], [[1, 2, 3, 4]], 3, "1,-2", 2], sample, names
    )
    assert x.dtype == np.float64 and math.isnan(x[1]) and x[2] == -np.inf
    assert grid.dtype == np.int32 and grid.shape == (1, 4)
    assert k == 3 and type(k) is int
    assert text.dtype == np.uint8 and bytes(text) == b"1,-2"
    assert alpha == 2.0 and type(alpha) is float
    empty = custom_input.literal_arguments([[], [], 0, [], 1.0], sample, names)[1]
    assert empty.shape == (0, 4) and empty.dtype == np.int32


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ([[1.0, 2.0], 1.5], "k must be a whole number"),
        ([[1.0, True], 1], "give numbers"),
        ([[[1.0], [2.0]], 1], "x must be a 1-D array of float64; yours has 2 dimensions"),
        ([1.0, 1], "x must be a 1-D array of float64"),
        ([[1.0, "many"], 1], "not 'many'"),
        ([[1.0], 1, 2], "takes 2 arguments"),
    ],
)
def test_literal_values_that_do_not_fit_are_refused(values, words):
    with pytest.raises(Refused) as refused:
        custom_input.literal_arguments(values, (np.zeros(3), 5), ["x", "k"])
    assert words in str(refused.value)


def test_integers_must_fit_their_dtype_and_rows_their_length():
    with pytest.raises(Refused, match="from 0 to 255; 300 is outside"):
        custom_input.literal_arguments([[1, 300]], (np.zeros(2, dtype=np.uint8),), ["data"])
    with pytest.raises(Refused, match="rows must all have the same length"):
        custom_input.literal_arguments([[[1.0, 2.0], [3.0]]], (np.zeros((2, 2)),), ["z"])


def test_preview_shows_dtype_shape_and_the_first_elements():
    shown = custom_input.preview(np.arange(20, dtype=np.float64))
    assert shown["dtype"] == "float64" and shown["shape"] == [20] and shown["more"] == 12
    assert shown["head"][:3] == ["0.0", "1.0", "2.0"]
    assert shown["text"] == "float64 array, shape (20,): [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, … 12 more]"
    pair = custom_input.preview((np.array([1, 2], dtype=np.int64), 3.5))
    assert pair["kind"] == "tuple" and pair["text"] == "(int64 array, shape (2,): [1, 2]; 3.5)"


# -- through the real harness ---------------------------------------------------------


def test_a_size_and_seed_run_on_both_sides_with_both_answers_and_times(tmp_path):
    custom = {"size": 9, "seed": 42}
    run = run_job(tmp_path, VECTOR_SOLUTION, mode="check", check_sizes=CHECK_SIZES, custom_input=custom)
    assert run.verdict == "accepted", run
    entry = run.report["custom_input"]
    assert entry["size"] == 9 and entry["seed"] == 42 and entry["match"] is True
    rng = np.random.default_rng(42).standard_normal(9)
    expected_head = [str(value) for value in np.sqrt(rng * rng + 1.0)[:8]]
    for role in ("reference", "submission"):
        answer = entry[role]["answer"]
        assert answer["dtype"] == "float64" and answer["shape"] == [9] and answer["more"] == 1
        assert answer["head"] == expected_head
        assert entry[role]["seconds"] > 0 and entry[role]["first_call_s"] > 0
    assert entry["arguments"][0].startswith("x = np.array([")
    assert "size 9, seed 42" in run.report["message"] and "match" in run.report["message"]
    assert run.report["sizes"] == [] and run.report["speedup"] is None


def test_no_seed_draws_one_and_reports_it_and_no_size_is_the_largest_check_size(tmp_path):
    run = run_job(tmp_path, VECTOR_SOLUTION, mode="check", check_sizes=CHECK_SIZES, custom_input={"seed": 5})
    assert run.verdict == "accepted", run
    assert run.report["custom_input"]["size"] == 400
    assert run.report["custom_input"]["reference"]["answer"]["shape"] == [400]
    run = run_job(tmp_path / "drawn", VECTOR_SOLUTION, mode="check", check_sizes=CHECK_SIZES, custom_input={"size": 3})
    assert isinstance(run.report["custom_input"]["seed"], int), run


def test_literal_values_show_where_the_answers_differ(tmp_path):
    run = top_k_job(tmp_path, TOP_K_WRONG, {"args": [[0.5, 3.0, -1.0, 2.0], 2]})
    assert run.verdict == "wrong_answer", run
    entry = run.report["custom_input"]
    assert entry["match"] is False and "Wrong" in entry["mismatch"]
    assert entry["reference"]["answer"]["head"] == ["1", "3"]
    assert entry["submission"]["answer"]["head"] == ["2", "0"]
    assert entry["reference"]["first_call_s"] > 0 and entry["reference"]["seconds"] is None
    assert entry["arguments"] == ["scores = np.array([0.5, 3.0, -1.0, 2.0], dtype=np.float64)", "k = 2"]
    assert "on your input" in run.report["message"]


def test_literal_values_that_match(tmp_path):
    run = top_k_job(tmp_path, TOP_K_SOLUTION, {"args": [[0.5, 3.0, "inf"], 1]})
    assert run.verdict == "accepted", run
    assert run.report["custom_input"]["submission"]["answer"]["head"] == ["2"]
    assert run.report["custom_input"]["size"] is None


def test_the_judge_checks_the_input_again(tmp_path):
    run = top_k_job(tmp_path / "large", TOP_K_SOLUTION, {"size": 401})
    assert run.verdict == "rejected" and "at most 400" in run.report["message"], run
    run = top_k_job(tmp_path / "typed", TOP_K_SOLUTION, {"args": [[1.0, 2.0], "two"]})
    assert run.verdict == "rejected", run
    assert run.report["message"] == "Your input was refused: k must be a whole number."
    assert "custom_input" not in run.report


def test_a_reference_that_refuses_the_values_is_the_inputs_doing(tmp_path):
    run = top_k_job(tmp_path, TOP_K_SOLUTION, {"args": [[1.0, 2.0], -1]})
    assert run.verdict == "rejected", run
    assert "k must be 0 or more" in run.report["message"] and "contract" in run.report["message"]


def test_a_custom_input_runs_only_in_check_mode(tmp_path):
    run = run_job(tmp_path, VECTOR_SOLUTION, custom_input={"size": 3})
    assert run.verdict == "internal_error" and "check mode only" in run.report["message"], run


def test_the_host_puts_the_input_in_the_job_for_a_check_only():
    exercise = grading.Exercise("tiny-scale", dict(TINY_SPEC), dict(TINY_FILES))
    job = grading.build_job(exercise, "check", {"size": 5})
    assert job["custom_input"] == {"size": 5} and job["sizes"] == TINY_SPEC["check_sizes"]
    assert "custom_input" not in grading.build_job(exercise, "check")
    with pytest.raises(ValueError, match="check mode only"):
        grading.build_job(exercise, "full", {"size": 5})
