"""Bad bank files are rejected with their path and the reason. Strict loads (CI's) report
every error together and load nothing; test_loader_partial.py has the default load."""

import pytest
from django.core.management import CommandError, call_command

from questions.loader import BankLoadError, load_bank
from questions.models import Question

from .conftest import CODING_SECTIONS, NUMERIC_SECTIONS, concept_front, markdown


def errors_for(root):
    with pytest.raises(BankLoadError) as caught:
        load_bank(root, validate=False, strict=True)
    return [str(error) for error in caught.value.errors]


def assert_single_error(root, path, *fragments):
    errors = errors_for(root)
    matching = [error for error in errors if error.startswith(f"{path}: ")]
    assert matching, errors
    assert any(all(fragment in error for fragment in fragments) for error in matching), errors


@pytest.mark.django_db
class TestRejectedFiles:
    def test_missing_key(self, bank):
        front = concept_front()
        del front["title"]
        bank.write(
            "algorithmic-complexity/amortised-doubling.md", markdown(front, {"Prompt": "p", "Sample answer": "s"})
        )
        assert_single_error(bank.root, "algorithmic-complexity/amortised-doubling.md", "missing key 'title'")

    def test_bad_difficulty(self, bank):
        bank.concept(difficulty="impossible")
        assert_single_error(bank.root, "algorithmic-complexity/amortised-doubling.md", "bad difficulty 'impossible'")

    def test_topic_must_come_from_the_one_list(self, bank):
        bank.concept(topic="GPU Programming")
        assert_single_error(
            bank.root,
            "algorithmic-complexity/amortised-doubling.md",
            "unknown topic 'GPU Programming'",
            "Algorithmic Complexity & Code-Level Optimization",
        )

    def test_bad_kind(self, bank):
        bank.concept(kind="essay")
        assert_single_error(bank.root, "algorithmic-complexity/amortised-doubling.md", "bad kind 'essay'")

    @pytest.mark.parametrize("size", [3, 9])
    def test_rubric_must_have_four_to_eight_points(self, bank, size):
        bank.concept(rubric=[f"point {n}" for n in range(size)])
        assert_single_error(
            bank.root, "algorithmic-complexity/amortised-doubling.md", f"rubric has {size} items", "4 to 8"
        )

    @pytest.mark.parametrize("key", ["answer", "unit", "tolerance"])
    def test_numeric_needs_answer_unit_and_tolerance(self, bank, key):
        path = bank.numeric()
        text = path.read_text()
        path.write_text("\n".join(line for line in text.split("\n") if not line.startswith(f"{key}:")))
        assert_single_error(bank.root, "technical-foundation/gib-in-bytes.md", f"missing key '{key}'")

    def test_numeric_answer_must_be_a_number(self, bank):
        bank.numeric(answer="lots")
        assert_single_error(bank.root, "technical-foundation/gib-in-bytes.md", "'answer' must be a number")

    def test_duplicate_slug_across_files(self, bank):
        bank.concept()
        bank.write(
            "technical-foundation/amortised-doubling.md",
            bank.root.joinpath("algorithmic-complexity/amortised-doubling.md").read_text(),
        )
        errors = errors_for(bank.root)
        assert any(
            "duplicate slug 'amortised-doubling'" in error and "algorithmic-complexity/amortised-doubling.md" in error
            for error in errors
        ), errors

    def test_yaml_error(self, bank):
        bank.write("algorithmic-complexity/broken.md", "---\nslug: broken\ntags: [unclosed\n---\n# Prompt\n\nx\n")
        assert_single_error(bank.root, "algorithmic-complexity/broken.md", "YAML error")

    def test_missing_front_matter(self, bank):
        bank.write("algorithmic-complexity/plain.md", "# Prompt\n\nNo front matter here.\n")
        assert_single_error(bank.root, "algorithmic-complexity/plain.md", "missing front matter")

    def test_missing_section(self, bank):
        bank.numeric(sections={key: value for key, value in NUMERIC_SECTIONS.items() if key != "Explanation"})
        assert_single_error(bank.root, "technical-foundation/gib-in-bytes.md", "missing section '# Explanation'")

    def test_unknown_section(self, bank):
        bank.concept(sections={"Prompt": "p", "Sample answer": "s", "Answer key": "k"})
        assert_single_error(bank.root, "algorithmic-complexity/amortised-doubling.md", "unknown section '# Answer key'")

    def test_slug_must_match_file_name(self, bank):
        bank.write("algorithmic-complexity/other-name.md", bank.concept().read_text())
        bank.root.joinpath("algorithmic-complexity/amortised-doubling.md").unlink()
        assert_single_error(bank.root, "algorithmic-complexity/other-name.md", "does not match the name 'other-name'")

    def test_coding_question_must_be_a_folder(self, bank):
        bank.write(
            "algorithmic-complexity/square-values.md",
            markdown(concept_front("square-values", kind="coding"), CODING_SECTIONS),
        )
        assert_single_error(bank.root, "algorithmic-complexity/square-values.md", "a coding exercise is a folder")


@pytest.mark.django_db
class TestRejectedExercises:
    FOLDER = "algorithmic-complexity/square-values"

    @pytest.mark.parametrize(
        ("front", "fragment"),
        [
            ({"target": "tpu"}, "bad target 'tpu'"),
            ({"entry_point": "not an identifier"}, "'entry_point' must be a Python identifier"),
            ({"entry_point": "class"}, "'entry_point' must be a Python identifier"),
            ({"sizes": []}, "'sizes' must be a non-empty list of positive integers"),
            ({"sizes": [100, -5]}, "'sizes' must be a non-empty list of positive integers"),
            ({"sizes": [100, 2.5]}, "'sizes' must be a non-empty list of positive integers"),
            ({"tolerance": 0.01}, "'tolerance' must be a mapping with keys from rtol, atol"),
            ({"tolerance": {"rtol": -1}}, "'tolerance.rtol' must be a non-negative number"),
            ({"limits": {"time_s": 0}}, "'limits.time_s' must be a positive number"),
            ({"limits": {"gpus": 2}}, "'limits' must be a mapping with keys from"),
            ({"allowed_imports": "numpy"}, "'allowed_imports' must be a list of module names"),
            ({"graded_on": ["beauty"]}, "'graded_on' must be a non-empty list from time, memory"),
            ({"cpus": 0}, "'cpus' must be a whole number from 1 to 64 or 'all'"),
            ({"cpus": 2.5}, "'cpus' must be a whole number from 1 to 64 or 'all'"),
            ({"cpus": True}, "'cpus' must be a whole number from 1 to 64 or 'all'"),
            ({"cpus": 65}, "'cpus' must be a whole number from 1 to 64 or 'all'"),
            ({"cpus": "many"}, "'cpus' must be a whole number from 1 to 64 or 'all'"),
            ({"cpus": 2, "target": "gpu"}, "'cpus' applies to CPU exercises only"),
        ],
    )
    def test_bad_front_matter(self, bank, front, fragment):
        bank.exercise(**front)
        assert_single_error(bank.root, self.FOLDER, fragment)

    def test_missing_required_key(self, bank):
        path = bank.exercise()
        question = path / "question.md"
        question.write_text(
            "\n".join(line for line in question.read_text().split("\n") if not line.startswith("entry_point:"))
        )
        assert_single_error(bank.root, self.FOLDER, "missing key 'entry_point'")

    def test_missing_code_file(self, bank):
        bank.exercise(files={"solution.py": None})
        assert_single_error(bank.root, self.FOLDER, "missing file(s) solution.py")

    def test_unexpected_file(self, bank):
        path = bank.exercise()
        (path / "notes.txt").write_text("scratch")
        assert_single_error(bank.root, self.FOLDER, "unexpected file(s) notes.txt")

    def test_python_file_outside_a_folder(self, bank):
        bank.write("algorithmic-complexity/stray/reference.py", "x = 1\n")
        assert_single_error(bank.root, "algorithmic-complexity/stray/reference.py", "outside an exercise folder")


@pytest.mark.django_db
def test_strict_reports_all_errors_and_loads_nothing(bank, capsys):
    bank.concept()  # a good file
    bank.concept(slug="bad-difficulty", difficulty="trivial")
    bank.numeric(tolerance="loose")
    with pytest.raises(CommandError, match="nothing was loaded"):
        call_command("load_bank", path=str(bank.root), skip_validation=True, strict=True)
    stderr = capsys.readouterr().err
    assert "algorithmic-complexity/bad-difficulty.md: bad difficulty 'trivial'" in stderr
    assert "technical-foundation/gib-in-bytes.md: 'tolerance' must be a relative tolerance" in stderr
    assert not Question.objects.exists()


@pytest.mark.django_db
def test_failed_validation_rejects_the_exercise(bank, fake_validation):
    """Without --skip-validation the grader's validation decides; a failure names the folder."""
    fake_validation(ok=False, message="solution disagrees with reference: index 3 differs")
    bank.exercise()
    with pytest.raises(BankLoadError) as caught:
        load_bank(bank.root)
    assert [str(error) for error in caught.value.errors] == [
        "algorithmic-complexity/square-values: validation failed: solution disagrees with reference: index 3 differs"
    ]
    assert not Question.objects.exists()
