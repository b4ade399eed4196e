"""Numeric answers: units converted with pint, counts compared as plain numbers."""

import dataclasses

import pytest

from questions.numeric import EXAMPLES, NumericCheck, check_numeric, slip_words, unit_slip, within_tolerance


def check(raw, answer=4294967296, unit="bytes", tolerance=0.01):
    return check_numeric(raw, answer=answer, unit=unit, tolerance=tolerance)


@pytest.mark.parametrize("raw", ["4 GiB", "4294967296", "4,294,967,296 bytes", "4.294967296e9 B", "4096 MiB", "4.3e9"])
def test_equivalent_values_are_correct(raw):
    result = check(raw)
    assert result.ok and result.correct, result


def test_value_outside_tolerance_is_incorrect():
    result = check("3.2e9 bytes")
    assert result.ok and not result.correct
    assert result.value == pytest.approx(3.2e9)


def test_time_units_convert():
    assert check("150 ms", answer=0.15, unit="s").correct
    assert check("0.15", answer=150, unit="ms").correct is False
    assert check("150000 us", answer=150, unit="ms").correct


def test_rates_convert():
    result = check("25 GB/s", answer=25e9, unit="bytes/s", tolerance=0.001)
    assert result.correct


def test_dimension_mismatch_is_explained():
    result = check("150 ms")
    assert not result.ok
    assert result.error == "Expected a value in bytes, got seconds."


def test_bytes_do_not_convert_to_dimensionless_units():
    result = check("5 bytes", answer=50, unit="percent")
    assert result.error == "Expected a value in percent, got bytes."


@pytest.mark.parametrize("raw", ["banana", "four gigabytes", "4 GiB or so;", "1e400", ""])
def test_garbage_gets_a_clear_message(raw):
    result = check(raw)
    assert not result.ok and not result.correct
    assert result.error
    assert result.value is None


def test_unknown_unit_is_named():
    assert check("4 bananas").error.startswith("Could not understand the unit 'bananas'")


@pytest.mark.parametrize("raw", ["31", "31 copies", "31 copy", "31.2 Copies"])
def test_count_units_compare_as_plain_numbers(raw):
    assert check(raw, answer=31, unit="copies", tolerance=0.01).correct


def test_count_units_reject_other_units():
    result = check("31 bytes", answer=31, unit="copies")
    assert result.error == "Expected a number of copies, got 'bytes'."


def test_tolerance_is_relative():
    assert within_tolerance(101, 100, 0.01)  # exactly at the edge: inside
    assert not within_tolerance(101.5, 100, 0.01)
    assert within_tolerance(-99.5, -100, 0.01)
    assert not within_tolerance(-101.5, -100, 0.01)
    assert within_tolerance(1.005, 1, 0.01) and not within_tolerance(0.98, 1, 0.01)


def test_tolerance_is_absolute_for_a_zero_answer():
    """A relative tolerance of zero would accept only an exact 0."""
    assert within_tolerance(0, 0, 0.01)
    assert within_tolerance(0.005, 0, 0.01) and within_tolerance(-0.01, 0, 0.01)
    assert not within_tolerance(0.02, 0, 0.01) and not within_tolerance(-0.0101, 0, 0.01)
    assert check("0.004 s", answer=0, unit="s").correct
    assert check("4 ms", answer=0, unit="s", tolerance=0.01).correct
    assert not check("40 ms", answer=0, unit="s", tolerance=0.01).correct


def test_count_word_accepts_spaces_for_underscores():
    assert check("3840 cache lines", answer=3840, unit="cache_lines").correct
    assert check("3840 cache-line", answer=3840, unit="cache_lines").correct
    assert check("3840 Cache_Lines", answer=3840, unit="cache_lines").correct
    wrong_unit = check("3840 seconds", answer=3840, unit="cache_lines")
    assert wrong_unit.error == "Expected a number of cache_lines, got 'seconds'."
    assert not wrong_unit.correct and wrong_unit.value is None


def test_count_words_in_ies_and_s_have_a_singular():
    assert check("2 entry", answer=2, unit="entries").correct
    assert check("2 entries", answer=2, unit="entries").correct
    assert check("2 entrie", answer=2, unit="entries").error == "Expected a number of entries, got 'entrie'."
    assert check("2 comparison", answer=2, unit="comparisons").correct
    assert check("2 comparisonss", answer=2, unit="comparisons").error


def test_a_checked_number_carries_its_value_and_verdict():
    result = check("4 GiB")
    assert result == NumericCheck(value=4294967296.0, correct=True, unit_read="gibibytes") and result.ok
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.correct = False  # a verdict, not a draft
    assert check("150 ms", answer=0.15, unit="s").value == pytest.approx(0.15)
    assert check("  2_048 ", answer=2048, unit="bytes").value == 2048
    assert check("7", answer=7, unit="copies").value == 7


def test_an_unreadable_answer_is_never_correct():
    for raw, error in [
        ("", "Enter a number, with a unit if you like."),
        ("   ", "Enter a number, with a unit if you like."),
        (None, "Enter a number, with a unit if you like."),
        ("1e400", "Enter a finite number."),
        (
            "banana",
            "Could not read 'banana' as a number with an optional unit (e.g. 4 GiB, 4294967296, 3.2e9 bytes or 150 ms).",
        ),
    ]:
        result = check(raw)
        assert result == NumericCheck(error=error) and not result.ok and not result.correct


def test_units_are_named_in_words_when_they_do_not_match():
    assert check("3 kg").error == "Expected a value in bytes, got kilograms."
    assert check("3 K").error == "Expected a value in bytes, got kelvin."
    assert check("3 Gbit/s", answer=1, unit="ms").error == "Expected a value in ms, got bytes per second."


def test_a_name_is_case_folded_only_into_a_unit_of_the_expected_kind():
    """'MHZ' folds to MHz, a rate: for a byte answer the name stays not understood."""
    assert check("3 MHZ").error == f"Could not understand the unit 'MHZ' ({EXAMPLES})."
    assert check("3 MHZ", answer=3e6, unit="Hz").correct


@pytest.mark.parametrize("raw", ["1,11", "1,11 ms", "12,5", "1,0000", "1,2,3", "1,234,5", "-1,5"])
def test_a_decimal_comma_is_refused_not_read_as_thousands(raw):
    """'1,11' meant 1.11 to the learner who typed it; reading it as 111 marked a right answer wrong."""
    result = check(raw, answer=1.11, unit="ms", tolerance=0.02)
    assert not result.ok and result.error.startswith(f"Could not read {raw!r}")
    assert "a comma may only separate thousands (as in 1,000,000). Write a decimal with a point (1.5)." in result.error


@pytest.mark.parametrize(
    "raw, value", [("1,000", 1000), ("12,345.5", 12345.5), ("-1,000,000", -1e6), ("+1,000e3", 1e6), ("999", 999)]
)
def test_commas_grouping_thousands_are_read(raw, value):
    assert check(raw, answer=value, unit="copies").value == value


def test_a_wrong_answer_off_by_a_power_of_a_thousand_is_called_a_unit_slip():
    assert unit_slip(0.00111, 1.112, 0.02) == 0.001
    assert unit_slip(1112.0, 1.112, 0.02) == 1000
    assert unit_slip(-1.1e-9, -1.1, 0.01) == 1e-9  # three powers down, sign kept
    assert unit_slip(1.1e12, 1.1, 0.01) == 1000**4
    assert unit_slip(1.1e6, 1.1, 0.01) == 1000**2 and unit_slip(1.0, 1000.0, 0.01) == 0.001
    assert unit_slip(1.1e15, 1.1, 0.01) is None  # past the powers searched
    assert unit_slip(1.1e4, 1.1, 0.01) is None  # ten thousand: not a unit's step
    assert unit_slip(1.112, 1.112, 0.02) is None  # right answers slipped nothing
    assert unit_slip(1.05e3, 1.0, 0.01) is None  # 1,050 is 1.05 thousand: outside the tolerance
    assert unit_slip(1.005e3, 1.0, 0.01) == 1000  # inside it
    assert (
        unit_slip(0.0, 1.0, 0.01) is None and unit_slip(5.0, 0.0, 0.01) is None and unit_slip(None, 1.0, 0.01) is None
    )
    assert (slip_words(1000), slip_words(1000**3), slip_words(0.001), slip_words(1e-6)) == (
        "1,000 times",
        "1,000,000,000 times",
        "1/1,000 of",
        "1/1,000,000 of",
    )
