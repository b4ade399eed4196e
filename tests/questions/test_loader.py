"""load_bank: creating, idempotency, edits, retiring and exercise versions."""

import pytest
from django.core.management import call_command

from questions.loader import load_bank
from questions.models import Attempt, ExerciseVersion, Question

from .conftest import REFERENCE


def run_command(root, capsys, *extra):
    call_command("load_bank", "--path", str(root), "--skip-validation", *extra)
    return capsys.readouterr().out


@pytest.mark.django_db
def test_loads_each_kind_into_rows(small_bank, capsys):
    out = run_command(small_bank.root, capsys)
    assert "3 created, 0 updated, 0 unchanged, 0 retired" in out

    concept = Question.objects.get(slug="amortised-doubling")
    assert concept.kind == "concept"
    assert concept.topic == "Algorithmic Complexity & Code-Level Optimization"
    assert concept.tags == ["hashing", "amortised-analysis"]
    assert len(concept.rubric) == 4
    assert concept.prompt.startswith("Why is insertion")
    assert "# a comment, not a section" in concept.prompt  # a '#' line inside fenced code is not a heading
    assert concept.source_path == "algorithmic-complexity/amortised-doubling.md"

    numeric = Question.objects.get(slug="gib-in-bytes")
    assert (numeric.answer_value, numeric.answer_unit, numeric.tolerance) == (4294967296.0, "bytes", 0.01)
    assert numeric.explanation.startswith("$4 \\times")

    coding = Question.objects.get(slug="square-values")
    assert coding.hints == "Vectorise."
    version = coding.current_exercise()
    assert version.number == 1
    assert version.spec["entry_point"] == "transform"
    assert version.spec["sizes"] == [1000, 10000]
    assert version.spec["tolerance"] == {"rtol": 1e-9, "atol": 0.0}
    assert version.reference_code == REFERENCE
    assert version.check_code == ""
    assert version.validation_report is None  # skipped


@pytest.mark.django_db
def test_second_run_changes_nothing_and_says_so(small_bank, capsys):
    run_command(small_bank.root, capsys)
    before = list(Question.objects.values("slug", "content_hash", "updated_at"))
    out = run_command(small_bank.root, capsys)
    assert out.startswith("Nothing changed")
    assert "3 unchanged" in out
    assert list(Question.objects.values("slug", "content_hash", "updated_at")) == before
    assert ExerciseVersion.objects.count() == 1


@pytest.mark.django_db
def test_edited_file_updates_its_row(small_bank, capsys):
    run_command(small_bank.root, capsys)
    small_bank.concept(title="Why doubling is cheap")
    out = run_command(small_bank.root, capsys)
    assert "0 created, 1 updated, 2 unchanged" in out
    assert Question.objects.get(slug="amortised-doubling").title == "Why doubling is cheap"


@pytest.mark.django_db
def test_formatting_only_changes_are_not_edits(small_bank, capsys):
    run_command(small_bank.root, capsys)
    path = small_bank.root / "algorithmic-complexity/amortised-doubling.md"
    path.write_text(path.read_text().replace("\n# Sample answer\n", "\n\n\n# Sample answer\n").replace("\n", "\r\n"))
    assert run_command(small_bank.root, capsys).startswith("Nothing changed")


@pytest.mark.django_db
def test_removed_file_retires_and_never_deletes(small_bank, capsys, candidate):
    run_command(small_bank.root, capsys)
    question = Question.objects.get(slug="amortised-doubling")
    Attempt.objects.create(user=candidate, question=question, answer_text="copies are geometric")
    (small_bank.root / "algorithmic-complexity/amortised-doubling.md").unlink()

    out = run_command(small_bank.root, capsys)
    assert "1 retired" in out
    question.refresh_from_db()
    assert question.retired_at is not None
    assert question.attempts.count() == 1
    assert not Question.objects.live().filter(slug="amortised-doubling").exists()

    assert run_command(small_bank.root, capsys).startswith("Nothing changed")  # retiring happens once

    small_bank.concept()
    out = run_command(small_bank.root, capsys)
    assert "1 restored" in out
    question.refresh_from_db()
    assert question.retired_at is None


@pytest.mark.django_db
def test_questions_written_in_the_admin_are_not_retired(small_bank, capsys):
    Question.objects.create(slug="admin-made", title="Admin", topic="T", difficulty="easy", kind="concept", prompt="p")
    run_command(small_bank.root, capsys)
    assert Question.objects.get(slug="admin-made").retired_at is None


@pytest.mark.django_db
def test_exercise_versions_follow_exercise_content_only(small_bank, capsys):
    run_command(small_bank.root, capsys)
    # Editing the prompt updates the question but keeps the version.
    small_bank.exercise(title="Square a vector, fast")
    run_command(small_bank.root, capsys)
    assert list(ExerciseVersion.objects.values_list("number", flat=True)) == [1]

    # Editing code makes version 2; version 1 stays for the submissions graded on it.
    small_bank.exercise(files={"reference.py": REFERENCE + "\n# slower on purpose\n"})
    out = run_command(small_bank.root, capsys)
    assert "1 new exercise version" in out
    question = Question.objects.get(slug="square-values")
    assert sorted(question.exercise_versions.values_list("number", flat=True)) == [1, 2]
    assert question.current_exercise().reference_code.endswith("# slower on purpose\n")

    # Editing the spec makes version 3.
    small_bank.exercise(files={"reference.py": REFERENCE + "\n# slower on purpose\n"}, sizes=[2000, 20000])
    run_command(small_bank.root, capsys)
    assert question.current_exercise().number == 3
    assert question.current_exercise().spec["sizes"] == [2000, 20000]


@pytest.mark.django_db
def test_new_versions_are_validated_and_the_report_kept(small_bank, fake_validation):
    calls = fake_validation(ok=True, report={"verdict": "accepted", "speedup": 12.5})
    report = load_bank(small_bank.root)
    assert report.new_versions == ["square-values"]
    spec, files = calls[0]
    assert spec["entry_point"] == "transform"
    assert set(files) == {"reference.py", "starter.py", "inputs.py", "solution.py"}
    version = Question.objects.get(slug="square-values").current_exercise()
    assert version.validation_report == {"verdict": "accepted", "speedup": 12.5}

    load_bank(small_bank.root)
    assert len(calls) == 1  # unchanged exercises are not validated again


@pytest.mark.django_db
@pytest.mark.parametrize("cpus", [2, "all"])
def test_an_exercise_graded_on_several_cpus_keeps_its_count_and_dumps_it(bank, capsys, tmp_path, cpus):
    bank.exercise(cpus=cpus)
    run_command(bank.root, capsys)
    assert Question.objects.get(slug="square-values").current_exercise().spec["cpus"] == cpus
    call_command("dump_bank", str(tmp_path))
    assert f"\ncpus: {cpus}\n" in (tmp_path / "algorithmic-complexity/square-values/question.md").read_text()


@pytest.mark.django_db
def test_an_exercise_without_cpus_has_none_in_its_spec(bank, capsys):
    bank.exercise()
    run_command(bank.root, capsys)
    assert "cpus" not in Question.objects.get(slug="square-values").current_exercise().spec


@pytest.mark.django_db
def test_unknown_front_matter_keys_are_carried(bank, capsys):
    bank.concept(source="interview notes", reviewed_by=["ana"])
    run_command(bank.root, capsys)
    assert Question.objects.get().extra == {"reviewed_by": ["ana"], "source": "interview notes"}


@pytest.mark.django_db
def test_numbers_yaml_reads_as_strings_are_accepted(bank, capsys):
    path = bank.numeric()
    path.write_text(path.read_text().replace("answer: 4294967296", "answer: 4.294967296e9"))
    run_command(bank.root, capsys)
    assert Question.objects.get().answer_value == 4294967296.0
