"""A broken bank entry is left out, named with its problem, and the rest of the bank
still loads, so one bad file cannot keep the site from starting. `--strict` (CI's) keeps
the all-or-nothing load; a bank with nothing loadable still fails."""

import io

import pytest
from django.core.management import CommandError, call_command

from questions.loader import load_bank
from questions.models import BankProblem, ExerciseVersion, Question, Visibility

pytestmark = pytest.mark.django_db


def run_load_bank(root, *options, **kwargs):
    """Run the command; returns (stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    call_command("load_bank", "--path", str(root), *options, stdout=out, stderr=err, **kwargs)
    return out.getvalue(), err.getvalue()


def test_a_broken_file_is_named_and_the_rest_of_the_bank_loads(bank):
    bank.concept()
    bank.numeric(tolerance="loose")
    out, err = run_load_bank(bank.root, "--skip-validation")
    assert list(Question.objects.values_list("slug", flat=True)) == ["amortised-doubling"]
    assert "technical-foundation/gib-in-bytes.md: 'tolerance' must be a relative tolerance" in err
    assert "1 entry not loaded" in out and "1 created" in out


def test_a_question_whose_file_broke_keeps_its_last_loaded_version_off_the_public_pages(bank):
    bank.concept()
    bank.numeric()
    run_load_bank(bank.root, "--skip-validation")
    assert Question.objects.get(slug="gib-in-bytes").is_public
    good = (bank.root / "technical-foundation/gib-in-bytes.md").read_text()
    bank.numeric(title="Bytes in four GiB", tolerance="loose")
    out, err = run_load_bank(bank.root, "--skip-validation")
    question = Question.objects.get(slug="gib-in-bytes")
    assert question.retired_at is None and question.title == "Bytes in 4 GiB"  # neither retired nor half-updated
    assert question.visibility == Visibility.ASSESSMENT  # issue 32: learners no longer see what the file lost
    assert "gib-in-bytes.md" in err and "0 retired" in out and "taken off the public pages" in out
    assert "off the public pages (gib-in-bytes)" in err
    problem = BankProblem.objects.get()
    assert problem.path == "technical-foundation/gib-in-bytes.md" and "got 'loose'" in problem.reason

    bank.write("technical-foundation/gib-in-bytes.md", good)  # fixed back to exactly what it was
    run_load_bank(bank.root, "--skip-validation")
    assert Question.objects.get(slug="gib-in-bytes").is_public
    assert not BankProblem.objects.exists()


def test_an_exercise_that_fails_validation_is_left_out_and_the_rest_loads(bank, fake_validation):
    fake_validation(ok=False, message="solution disagrees with reference: index 3 differs")
    bank.concept()
    bank.exercise()
    out, err = run_load_bank(bank.root)
    assert "algorithmic-complexity/square-values: validation failed: solution disagrees" in err
    assert list(Question.objects.values_list("slug", flat=True)) == ["amortised-doubling"]
    assert not ExerciseVersion.objects.exists()


def test_the_second_of_two_entries_with_one_slug_is_left_out(bank):
    bank.concept()
    bank.write(
        "technical-foundation/amortised-doubling.md",
        (bank.root / "algorithmic-complexity/amortised-doubling.md").read_text(),
    )
    _, err = run_load_bank(bank.root, "--skip-validation")
    assert "duplicate slug 'amortised-doubling'" in err
    assert Question.objects.get().source_path == "algorithmic-complexity/amortised-doubling.md"


def test_strict_refuses_the_whole_bank(bank):
    bank.concept()
    bank.numeric(tolerance="loose")
    with pytest.raises(CommandError, match="nothing was loaded"):
        run_load_bank(bank.root, "--skip-validation", "--strict")
    assert not Question.objects.exists()


def test_a_bank_with_nothing_loadable_fails(bank):
    bank.numeric(tolerance="loose")
    with pytest.raises(CommandError, match="nothing was loaded"):
        run_load_bank(bank.root, "--skip-validation")


def test_the_report_lists_what_was_left_out(bank):
    bank.concept()
    bank.numeric(tolerance="loose")
    report = load_bank(bank.root, validate=False)
    assert [error.path for error in report.problems] == ["technical-foundation/gib-in-bytes.md"]
    assert report.created == ["amortised-doubling"]
