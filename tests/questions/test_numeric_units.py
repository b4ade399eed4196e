"""Numeric answers as people type them: a bare number in the question's unit (the
help text says which, with examples of that kind), unit names in any case."""
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
    assert answer_help("GiB") == "A bare number is read in GiB (so 64 means 64 GiB). Or give a unit, in any case: 4 GiB, 512 mib or 3.2e9 bytes."
    assert answer_help("copies") == "A bare number is read in copies (so 64 means 64 copies)."
    for example in ("4 GiB", "512 mib", "3.2e9 bytes"):
        assert check_numeric(example, answer=1, unit="bytes", tolerance=0.01).ok
    for example in ("150 ms", "20 us", "1.5 s"):
        assert check_numeric(example, answer=1, unit="ms", tolerance=0.01).ok


@pytest.mark.django_db
def test_the_answer_box_says_how_a_bare_number_is_read(candidate_client, loaded_bank):
    question = loaded_bank["numeric"]
    page = candidate_client.get(question.get_absolute_url()).content.decode()
    assert f"A bare number is read in {question.answer_unit}" in page
    response = candidate_client.post(question.get_absolute_url(), {"value": "4 gib", "confidence": 3})
    assert response.status_code == 302 and Attempt.objects.get().numeric_correct is True
