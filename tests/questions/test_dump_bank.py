"""dump_bank writes the canonical files; load -> dump -> load -> dump is lossless."""

import filecmp

import pytest
from django.core.management import call_command

from questions.models import ExerciseVersion, Question

QUESTION_COLUMNS = (
    "slug",
    "title",
    "topic",
    "tags",
    "difficulty",
    "kind",
    "prompt",
    "sample_answer",
    "explanation",
    "hints",
    "rubric",
    "answer_value",
    "answer_unit",
    "tolerance",
    "source_path",
    "content_hash",
    "extra",
    "retired_at",
)
VERSION_COLUMNS = (
    "question__slug",
    "number",
    "spec",
    "reference_code",
    "starter_code",
    "inputs_code",
    "solution_code",
    "check_code",
    "content_hash",
)


def snapshot():
    return (
        list(Question.objects.order_by("slug").values(*QUESTION_COLUMNS)),
        list(ExerciseVersion.objects.order_by("question__slug", "number").values(*VERSION_COLUMNS)),
    )


def files_under(root):
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())


def same_files(left, right):
    names = files_under(left)
    assert names == files_under(right)
    _, mismatch, errors = filecmp.cmpfiles(left, right, names, shallow=False)
    return not mismatch and not errors


@pytest.mark.django_db
def test_round_trip_is_lossless(small_bank, tmp_path):
    small_bank.exercise(
        slug="checked-squares", files={"check.py": "def check(expected, got, args):\n    return True, ''\n"}
    )
    small_bank.concept(
        slug="with-extras",
        source="notes",
        sections={
            "Prompt": "Table:\n\n| a | b |\n|---|--:|\n| 1 | 2 |",
            "Sample answer": "s",
            "Explanation": "e",
        },
    )
    call_command("load_bank", path=str(small_bank.root), skip_validation=True)
    first_rows = snapshot()
    first_dump, second_dump = tmp_path / "dump1", tmp_path / "dump2"
    call_command("dump_bank", str(first_dump))

    # Same folder layout as the source.
    assert files_under(first_dump) == files_under(small_bank.root)

    # Load the dump into an empty database: identical rows.
    ExerciseVersion.objects.all().delete()
    Question.objects.all().delete()
    call_command("load_bank", path=str(first_dump), skip_validation=True)
    assert snapshot() == first_rows

    call_command("dump_bank", str(second_dump))
    assert same_files(first_dump, second_dump)


@pytest.mark.django_db
def test_dump_writes_canonical_front_matter(loaded_bank, tmp_path):
    call_command("dump_bank", str(tmp_path / "out"))
    text = (tmp_path / "out/technical-foundation/gib-in-bytes.md").read_text()
    assert text.startswith(
        "---\nslug: gib-in-bytes\ntitle: Bytes in 4 GiB\ntopic: Technical Foundation and Self Assessment\n"
        "tags: [memory]\ndifficulty: easy\nkind: numeric\nanswer: 4294967296\nunit: bytes\ntolerance: 0.01\n---\n"
    )
    assert "\n# Prompt\n\nHow many bytes are in 4 GiB?\n\n# Sample answer\n" in text
    assert not (tmp_path / "out/algorithmic-complexity/square-values/check.py").exists()


@pytest.mark.django_db
def test_dump_skips_retired_questions(loaded_bank, tmp_path):
    Question.objects.filter(slug="gib-in-bytes").update(retired_at="2026-01-01T00:00:00Z")
    call_command("dump_bank", str(tmp_path / "out"))
    assert not (tmp_path / "out/technical-foundation/gib-in-bytes.md").exists()
    assert (tmp_path / "out/algorithmic-complexity/amortised-doubling.md").exists()
