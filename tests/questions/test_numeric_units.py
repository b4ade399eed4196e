"""Numeric answers as people type them: a bare number in the question's unit (the
help text says which, with examples of that kind), unit names in any case where case
means nothing, kept where it does (b is a bit, B a byte), times as "6.4x", rates
"per second", and the unit read named when it was converted."""

import pytest
from django.urls import reverse

from questions.models import Attempt
from questions.numeric import answer_help, check_numeric


def check(raw, answer=1, unit="GiB"):
    return check_numeric(raw, answer=answer, unit=unit, tolerance=0.01)


@pytest.mark.parametrize("raw", ["1 gib", "1 GIB", "1024 mib", "1073741824 bytes", "1073741824 B", "1"])
def test_unit_names_in_any_case(raw):
    assert check(raw).correct, raw


def test_a_bare_number_is_in_the_questions_unit():
    assert not check("1073741824").correct  # 1073741824 GiB, not bytes
    assert check("150", answer=0.15, unit="s").correct is False
    assert check("150 MS", answer=0.15, unit="s").correct  # folded to ms: a megasecond is not a time the box expects


def test_a_case_sensitive_name_that_fits_keeps_its_meaning():
    assert check("1 Ms", answer=1e6, unit="s").correct  # megasecond, as pint reads it
    assert check("3 kg").error == "Expected a value in GiB, got kilograms."


def test_help_names_the_unit_and_its_examples_agree():
    assert answer_help("GiB") == (
        "A bare number is read in GiB (so 64 means 64 GiB). Or give a unit: 4 GiB, 512 mib or 3.2e9 bytes. "
        "B is a byte and b a bit (8 Gib is 1 GiB); a name all in lower case (gib) is read as bytes."
    )
    assert answer_help("copies") == "A bare number is read in copies (so 64 means 64 copies)."
    assert answer_help("times") == "A bare number is read in times (so 64 means 64 times). 64x means the same."
    assert check("64x", answer=64, unit="times").correct
    for example in ("4 GiB", "512 mib", "3.2e9 bytes"):
        assert check_numeric(example, answer=1, unit="bytes", tolerance=0.01).ok
    for example in ("150 ms", "20 us", "1.5 s"):
        assert check_numeric(example, answer=1, unit="ms", tolerance=0.01).ok
    for example in ("25 GB/s", "25 GB per second", "100 Gbit/s"):
        assert check_numeric(example, answer=1, unit="MB/s", tolerance=0.01).ok


@pytest.mark.django_db
def test_the_answer_box_says_how_a_bare_number_is_read(candidate_client, loaded_bank):
    question = loaded_bank["numeric"]
    page = candidate_client.get(question.get_absolute_url()).content.decode()
    assert f"A bare number is read in {question.answer_unit}" in page
    response = candidate_client.post(question.get_absolute_url(), {"value": "4 gib", "confidence": 3})
    assert response.status_code == 302 and Attempt.objects.get().numeric_correct is True


@pytest.mark.parametrize("raw", ["6.4x", "6.4 x", "6.4X", "6.4×", "6.4 ×", "6.4 times", "6.4"])
def test_times_are_written_with_x_as_the_sample_answers_write_them(raw):
    assert check(raw, answer=6.4, unit="times").correct, raw


@pytest.mark.parametrize(
    "raw", ["25 GB/s", "25 GB per s", "25 GB per second", "25 GB/sec", "25 gb/s", "25 GB/S", "25 GB per Second"]
)
def test_rates_are_read_however_people_write_per_second(raw):
    assert check(raw, answer=25_000, unit="MB/s").correct, raw


@pytest.mark.parametrize(
    "raw",
    ["100 requests/s", "100 requests per second", "100 requests/sec", "100 request per s", "100/s", "100 per second"],
)
def test_count_rates_are_read_however_people_write_per_second(raw):
    assert check(raw, answer=100, unit="requests/s").correct, raw


def test_a_count_rate_refuses_another_count():
    assert (
        check("100 commits/s", answer=100, unit="requests/s").error
        == "Expected a number of requests/s, got 'commits/s'."
    )


@pytest.mark.parametrize(
    ("raw", "gib"),
    [
        ("8 Gib", 1),
        ("8 GiB", 8),
        ("8 GIB", 8),
        ("8 gib", 8),
        ("8 Gibit", 1),
        ("8 gibit", 1),
        ("8192 Mib", 1),
        ("8192 MiB", 8),
    ],
)
def test_b_is_a_bit_and_B_a_byte_whenever_the_name_shows_case(raw, gib):
    assert check(raw, unit="GiB").value == pytest.approx(gib), raw


@pytest.mark.parametrize(
    ("raw", "gb"), [("8 Gb", 1), ("8 GB", 8), ("8 gb", 8), ("8000 Mb", 1), ("8000 MB", 8), ("8 Gbit", 1)]
)
def test_decimal_bits_and_bytes_keep_their_case(raw, gb):
    assert check(raw, unit="GB").value == pytest.approx(gb), raw


@pytest.mark.parametrize("raw", ["2 s", "2 S", "2 sec", "2 SEC", "2 seconds", "2 Seconds", "2000 ms", "2000 MS"])
def test_seconds_are_read_in_any_case(raw):
    assert check(raw, answer=2, unit="s").correct, raw


@pytest.mark.parametrize(
    ("raw", "unit", "read"),
    [
        ("8 Gib", "GiB", "gibibits"),
        ("150 Ms", "ms", "megaseconds"),
        ("25 GB per second", "MB/s", "gigabytes per second"),
        ("2 s", "ms", "seconds"),
    ],
)
def test_a_converted_unit_is_named(raw, unit, read):
    assert check(raw, unit=unit).unit_read == read


@pytest.mark.parametrize(
    ("raw", "unit"), [("8 GiB", "GiB"), ("8 gib", "GiB"), ("8", "GiB"), ("6.4x", "times"), ("100/s", "requests/s")]
)
def test_the_questions_own_unit_is_not_named(raw, unit):
    assert check(raw, unit=unit).unit_read == ""


@pytest.mark.django_db
def test_the_result_page_says_which_unit_was_read(candidate_client, loaded_bank):
    question = loaded_bank["numeric"]  # 4294967296 bytes
    response = candidate_client.post(question.get_absolute_url(), {"value": "32 Gib", "confidence": 3}, follow=True)
    page = response.content.decode()
    assert "read as gibibits" in page and "Correct" in page  # 32 gibibits are 4 GiB
