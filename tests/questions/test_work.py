"""An exercise's declared work (front matter `work`): a tiny formula language in n,
parsed with ast and never evaluated by Python; load_bank checks it."""

import pytest

from grader.work import BadFormula, check_work, evaluate
from questions.loader import BankLoadError, dump_bank, load_bank
from questions.models import ExerciseVersion

from .test_loader_errors import assert_single_error


@pytest.mark.parametrize(
    ("formula", "n", "value"),
    [
        ("16*n", 1000, 16000.0),
        ("3 * n + 2", 10, 32.0),
        ("n**2", 30, 900.0),
        ("8*n*(n-1)/2", 4, 48.0),
        ("2.5e1 * n", 2, 50.0),
        (0, 5, 0.0),
        ("-(-n)", 3, 3.0),
    ],
)
def test_formulas_in_n(formula, n, value):
    assert evaluate(formula, n) == value


@pytest.mark.parametrize(
    ("formula", "fragment"),
    [
        ("__import__('os').system('true')", "may use only n, numbers"),
        ("n.real", "may use only n, numbers"),
        ("x * 2", "the only name allowed is n, not 'x'"),
        ("2 ** n", "a power's exponent must be a number"),
        ("n ** 100", "a power's exponent must be a number of at most 4"),
        ("(lambda: 1)()", "may use only n, numbers"),
        ("'16' * n", "may use only n, numbers"),
        ("True * n", "may use only n, numbers"),
        ("n // 2", "may use only n, numbers"),
        ("16*", "is not a formula"),
        ("", "must be a non-empty string"),
        ("n" * 201, "at most 200 characters"),
    ],
)
def test_anything_else_is_refused_with_the_reason(formula, fragment):
    with pytest.raises(BadFormula) as caught:
        evaluate(formula, 10)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("formula", ["n - 20", "1 / (n - 10)", "(n - 20) ** 0.5"])
def test_a_formula_must_be_finite_and_non_negative_at_the_sizes(formula):
    with pytest.raises(BadFormula, match="finite, non-negative number at n = 10"):
        check_work({"bytes": formula, "flops": "n"}, [10, 100])


def test_work_needs_exactly_bytes_and_flops():
    with pytest.raises(BadFormula, match="exactly the keys bytes and flops"):
        check_work({"bytes": "16*n"}, [10])
    with pytest.raises(BadFormula, match="some bytes or some flops"):
        check_work({"bytes": 0, "flops": "0*n"}, [10])
    assert check_work({"bytes": " 16*n ", "flops": 0}, [10]) == {"bytes": "16*n", "flops": 0}


@pytest.mark.django_db
def test_load_bank_keeps_work_and_dump_writes_it_back(bank, tmp_path):
    bank.exercise(work={"bytes": "16*n", "flops": "2*n"})
    load_bank(bank.root, validate=False)
    assert ExerciseVersion.objects.get().spec["work"] == {"bytes": "16*n", "flops": "2*n"}
    dump_bank(tmp_path / "dumped")
    assert "work: {bytes: 16*n, flops: 2*n}" in next((tmp_path / "dumped").rglob("question.md")).read_text()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("work", "fragment"),
    [
        ({"bytes": "open('x')", "flops": "n"}, "may use only n, numbers"),
        ({"bytes": "16*n"}, "'work': 'work' must be a mapping with exactly the keys bytes and flops"),
        ({"bytes": "n - 1000", "flops": "n"}, "not a finite, non-negative number at n = 100"),
    ],
)
def test_load_bank_refuses_bad_work(bank, work, fragment):
    bank.exercise(work=work)
    assert_single_error(bank.root, "algorithmic-complexity/square-values", fragment)
    with pytest.raises(BankLoadError):
        load_bank(bank.root, validate=False)
