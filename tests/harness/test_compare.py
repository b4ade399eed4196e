"""compare.py: what counts as the reference's answer, decided value by value.
Each test pins a decision whose silent change would pass a wrong answer or fail a right one."""

import numpy as np
import pytest

from grader.harness import compare, ipc

TOLERANCE = {"rtol": 1e-9, "atol": 0.0}


def wrong(expected, got, tolerance=TOLERANCE, **options):
    mismatch = compare.compare(expected, got, tolerance, **options)
    assert mismatch is not None, f"{got!r} accepted for {expected!r}"
    return mismatch


# -- structure: the answer must be the same kind of thing -----------------------------


def test_a_tuple_must_have_as_many_items_as_the_reference():
    expected = (np.ones(2), 1.0)
    assert compare.compare(expected, (np.ones(2), 1.0), TOLERANCE) is None
    for got in [(np.ones(2),), (np.ones(2), 1.0, 2.0), [np.ones(2), 1.0]]:
        message = wrong(expected, got if not isinstance(got, list) else ipc.UnsupportedValue("a list")).message
        assert "expected a tuple of 2 items" in message or "a list" in message
    assert (
        wrong(expected, (np.ones(2),)).message
        == "Your function returned a tuple of 1 items; expected a tuple of 2 items."
    )
    assert wrong(expected, np.ones(2)).message == (
        "Your function returned a numpy array of dtype float64 and shape (2,); expected a tuple of 2 items."
    )


def test_a_wrongly_shaped_array_inside_a_tuple_is_refused():
    expected = (1, np.zeros((2, 3)))
    mismatch = wrong(expected, (1, np.zeros((3, 2))))
    assert (
        mismatch.message
        == "Your function returned an array of shape (3, 2) (item 1 of the tuple); expected shape (2, 3)."
    )
    assert wrong(expected, (1, np.zeros((2, 3), dtype=np.int64))).message == (
        "Your function returned a signed integer array (int64) (item 1 of the tuple); "
        "expected a floating-point array (float64)."
    )
    assert wrong(expected, (np.zeros((2, 3)), 1)).message == (
        "Your function returned a numpy array of dtype float64 and shape (2, 3) (item 0 of the tuple); expected a single number."
    )


def test_an_expected_none_accepts_only_none():
    assert compare.compare(None, None, TOLERANCE) is None
    assert compare.compare((np.ones(2), None), (np.ones(2), None), TOLERANCE) is None
    assert wrong(None, 0.0).message == "Your function returned a float; expected None."
    assert wrong((1.0, None), (1.0, np.zeros(1))).message == (
        "Your function returned a numpy array of dtype float64 and shape (1,) (item 1 of the tuple); expected None."
    )


def test_none_where_a_number_is_expected_is_a_wrong_answer_not_a_crash():
    assert wrong(3.0, None).message == "Your function returned None; expected a single number." + compare.NO_RETURN_NOTE
    assert (
        wrong(np.ones(3), None).message
        == "Your function returned None; expected a numpy.ndarray." + compare.NO_RETURN_NOTE
    )
    assert (
        wrong((1.0, 2.0), (1.0, None)).message
        == "Your function returned None (item 1 of the tuple); expected a single number."
    )


def test_a_number_may_be_any_scalar_type_but_not_an_array():
    for got in (3, 3.0, np.float32(3.0), np.int64(3), True if False else 3):
        assert compare.compare(3.0, got, TOLERANCE) is None
    assert "expected a single number" in wrong(3.0, np.array(3.0)).message


def test_an_unsupported_answer_is_named():
    mismatch = wrong(np.ones(2), ipc.UnsupportedValue("a list"))
    assert mismatch.message == "Your function returned a list; expected a numpy array of dtype float64 and shape (2,)."
    assert mismatch.failure == {"returned": "a list"}


def test_a_reference_answer_the_grader_cannot_compare_is_said_so():
    assert wrong("text", "text").message == "The reference returned a str, which the grader cannot compare."
    refused = ipc.UnsupportedValue("a generator")
    assert wrong(refused, 1.0).message == "The reference returned a generator, which the grader cannot compare."


# -- values ------------------------------------------------------------------------


def test_integer_answers_are_exact_whatever_the_tolerance():
    loose = {"rtol": 1e-3, "atol": 1.0}
    assert wrong(np.array([10**12]), np.array([10**12 + 1]), loose).failure["index"] == [0]
    assert wrong(10**12, 10**12 + 1, loose).message.startswith("Wrong value: expected 1000000000000, got 1000000000001")
    assert wrong(10**12, float(10**12 + 1), loose) is not None  # a float for an integer answer: still exact
    assert compare.compare(7, 7.0, loose) is None
    assert wrong(np.array([True, False]), np.array([True, True]), loose).failure["index"] == [1]
    assert wrong(np.array([3], dtype=np.uint8), np.array([4], dtype=np.uint8), loose) is not None


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.complex64])
def test_float32_and_complex_answers_are_held_to_the_tolerance(dtype):
    tolerance = {"rtol": 1e-5, "atol": 0.0}
    expected = np.linspace(1.0, 2.0, 50).astype(dtype)
    assert compare.compare(expected, expected * dtype(1 + 1e-6), tolerance) is None
    got = expected.copy()
    got[17] *= dtype(1 + 1e-3)
    mismatch = wrong(expected, got, tolerance)
    assert mismatch.failure["index"] == [17] and mismatch.failure["mismatches"] == 1 and mismatch.failure["total"] == 50
    if np.iscomplexobj(expected):
        got = expected.copy()
        got[3] += dtype(1e-3j)  # only the imaginary part is off
        assert wrong(expected, got, tolerance).failure["index"] == [3]


def test_absolute_tolerance_counts_near_zero():
    expected = np.zeros(4)
    assert compare.compare(expected, np.full(4, 1e-7), {"rtol": 1e-9, "atol": 1e-6}) is None
    assert wrong(expected, np.full(4, 1e-5), {"rtol": 1e-9, "atol": 1e-6}).failure["mismatches"] == 4


def test_the_first_wrong_value_is_reported_in_full():
    expected = np.arange(6, dtype=np.float64).reshape(2, 3)
    got = expected.copy()
    got[1, 0] = 30.5
    got[1, 2] = -1.0
    mismatch = wrong(expected, got, {"rtol": 1e-9, "atol": 1e-12})
    assert mismatch.message == (
        "Wrong value at index [1, 0]: expected 3.0, got 30.5 (tolerance rtol=1e-09, atol=1e-12); 2 of 6 values differ."
    )
    assert (
        mismatch.failure.items()
        >= {
            "index": [1, 0],
            "expected": "3.0",
            "got": "30.5",
            "tolerance": {"rtol": 1e-9, "atol": 1e-12},
            "mismatches": 2,
            "total": 6,
        }.items()
    )


def test_a_wrong_number_has_no_index_and_a_wrong_tuple_item_says_which():
    assert (
        wrong(2.5, 2.75).message
        == "Wrong value: expected 2.5, got 2.75 (tolerance rtol=1e-09, atol=0); 1 of 1 values differ."
    )
    assert wrong(2.5, 2.75).failure["index"] == []
    mismatch = wrong((1.0, np.array([1.0, 2.0])), (1.0, np.array([1.0, 2.5])))
    assert mismatch.message.startswith("Wrong value at index [1] (item 1 of the tuple): expected 2.0, got 2.5")
    assert wrong((1.0, 2.0), (1.5, 2.5)).message.startswith("Wrong value (item 0 of the tuple): expected 1.0, got 1.5")


@pytest.mark.parametrize("expected", [np.zeros(3), 1.5, (1.0, np.zeros(2))])
def test_none_for_an_answer_says_a_return_is_missing(expected):
    message = wrong(expected, None).message
    assert message.startswith("Your function returned None; expected ") and message.endswith(compare.NO_RETURN_NOTE)


def test_none_inside_a_tuple_or_a_wrong_answer_that_is_not_none_gets_no_return_note():
    assert compare.NO_RETURN_NOTE not in wrong((1.0, np.zeros(2)), (1.0, None)).message
    assert compare.NO_RETURN_NOTE not in wrong(np.zeros(3), [0.0, 0.0, 0.0]).message


def test_a_real_number_for_a_complex_one_is_a_wrong_value_not_a_crash():
    # Only a float64 answer to a float64 reference takes the blockwise path; a
    # complex reference must not reach it (a complex difference has no float buffer).
    assert wrong(np.complex128(1 + 1j), 1.0).message.startswith("Wrong value: expected (1+1j), got 1.0")
    assert compare.compare(np.complex128(1 + 0j), 1.0, TOLERANCE) is None


def test_a_narrower_float_answer_is_told_why_its_values_differ():
    expected = np.array([2231.9466312816176, 1.0])
    note = (
        " Your array is float32, the reference's float64: float32 cannot hold the digits this tolerance asks for, "
        "so compute in float64 and return float64."
    )
    assert wrong(expected, expected.astype(np.float32), {"rtol": 1e-12, "atol": 0.0}).message.endswith(note)
    complex_note = wrong(
        np.array([1 / 3 + 1j]), np.array([1 / 3 + 1j], dtype=np.complex64), {"rtol": 1e-12, "atol": 0.0}
    ).message
    assert complex_note.endswith(
        "Your array is complex64, the reference's complex128: complex64 cannot hold the digits "
        "this tolerance asks for, so compute in complex128 and return complex128."
    )


@pytest.mark.parametrize(
    ("expected", "got"),
    [
        (np.array([1.0, 2.0], dtype=np.float32), np.array([1.0, 2.5])),  # wider than the reference's
        (np.array([1.0, 2.0], dtype=np.float32), np.array([1.0, 2.5], dtype=np.float32)),  # the same width
        (np.array([1, 2], dtype=np.int64), np.array([1, 3], dtype=np.int32)),  # integers are exact at any width
    ],
)
def test_no_precision_note_where_precision_is_not_the_cause(expected, got):
    assert "cannot hold the digits" not in wrong(expected, got, {"rtol": 1e-9, "atol": 0.0}).message


def test_numbers_are_shown_exactly():
    assert compare.format_number(np.float32(0.1)) == "0.10000000149011612"
    assert compare.format_number(np.complex128(1 + 2j)) == "(1+2j)"
    assert compare.format_number(np.int64(7)) == "7"
    assert compare.format_number(np.bool_(True)) == "True"
    assert compare.format_number(1e-300) == "1e-300"


# -- an exercise's own check ----------------------------------------------------------


def test_a_custom_check_decides_the_values():
    def within_one(expected, got, args):
        assert args == (np.float64(2.0),)
        return abs(got - expected) <= 1.0, f"off by {abs(got - expected)}"

    assert compare.compare(5.0, 5.5, TOLERANCE, within_one, (np.float64(2.0),)) is None
    mismatch = wrong(5.0, 7.0, custom_check=within_one, args=(np.float64(2.0),))
    assert mismatch.message == "off by 2.0" and mismatch.failure == {"check": "off by 2.0"}


def test_a_custom_check_that_says_nothing_or_too_much_or_raises():
    assert (
        wrong(1.0, 1.0, custom_check=lambda *_: (False, "")).message == "The exercise's checker rejected your answer."
    )
    long = "x" * 5000
    mismatch = wrong(1.0, 1.0, custom_check=lambda *_: (False, long))
    assert mismatch.message == "x" * 1000 and mismatch.failure == {"check": "x" * 1000}

    def raises(expected, got, args):
        raise ValueError("y" * 1000)

    assert wrong(1.0, 1.0, custom_check=raises).message == (
        "The exercise's checker rejected your answer: ValueError: " + "y" * 300
    )
    assert wrong(1.0, 1.0, custom_check=lambda *_: True).message.startswith(
        "The exercise's checker rejected your answer: TypeError"
    )
