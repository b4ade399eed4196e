"""A small question bank written into tmp_path, so these tests never depend on
the real bank's content."""

import textwrap

import pytest
import yaml
from django.core.management import call_command

from questions.models import Question

TOPIC = "Algorithmic Complexity & Code-Level Optimization"

REFERENCE = textwrap.dedent(
    """\
    def transform(values):
        return [v * v for v in values]
    """
)
SOLUTION = textwrap.dedent(
    """\
    import numpy as np


    def transform(values):
        return np.square(values)
    """
)
INPUTS = textwrap.dedent(
    """\
    import numpy as np


    def make_inputs(size, seed):
        return (np.random.default_rng(seed).random(size),)
    """
)


def concept_front(slug="amortised-doubling", **overrides):
    front = {
        "slug": slug,
        "title": "Amortised cost of a doubling hash table",
        "topic": TOPIC,
        "tags": ["hashing", "amortised-analysis"],
        "difficulty": "medium",
        "kind": "concept",
        "rubric": [
            "Doubling copies n items",
            "Total copies form a geometric series",
            "Amortised O(1)",
            "Load factor bounds",
        ],
    }
    front.update(overrides)
    return front


def numeric_front(slug="gib-in-bytes", **overrides):
    front = {
        "slug": slug,
        "title": "Bytes in 4 GiB",
        "topic": "Technical Foundation and Self Assessment",
        "tags": ["memory"],
        "difficulty": "easy",
        "kind": "numeric",
        "answer": 4294967296,
        "unit": "bytes",
        "tolerance": 0.01,
    }
    front.update(overrides)
    return front


def coding_front(slug="square-values", **overrides):
    front = {
        "slug": slug,
        "title": "Square a vector",
        "topic": "Performance Cost Optimization & Resource Efficiency",
        "tags": ["numpy"],
        "difficulty": "easy",
        "kind": "coding",
        "target": "cpu",
        "entry_point": "transform",
        "sizes": [1000, 10000],
        "check_sizes": [100],
        "edge_sizes": [0, 1],
        "tolerance": {"rtol": 1.0e-9, "atol": 0.0},
        "repeats": 5,
        "limits": {"time_s": 60, "memory_mb": 512},
        "allowed_imports": ["numpy", "math"],
        "graded_on": ["time"],
    }
    front.update(overrides)
    return front


CONCEPT_SECTIONS = {
    "Prompt": "Why is insertion into a doubling table $O(1)$ amortised?\n\n```python\n# a comment, not a section\ntable = {}\n```",
    "Sample answer": "Each doubling copies all items, but the copies sum to at most $2n$.",
}
NUMERIC_SECTIONS = {
    "Prompt": "How many bytes are in 4 GiB?",
    "Sample answer": "4294967296 bytes.",
    "Explanation": "$4 \\times 2^{30} = 2^{32}$ bytes.",
}
CODING_SECTIONS = {"Prompt": "Square every value.", "Sample answer": "Use `np.square`.", "Hints": "Vectorise."}


def markdown(front, sections):
    text = "---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n"
    for heading, body in sections.items():
        text += f"\n# {heading}\n\n{body}\n"
    return text


class BankBuilder:
    def __init__(self, root):
        self.root = root

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def concept(self, slug="amortised-doubling", folder="algorithmic-complexity", sections=None, **front):
        return self.write(f"{folder}/{slug}.md", markdown(concept_front(slug, **front), sections or CONCEPT_SECTIONS))

    def numeric(self, slug="gib-in-bytes", folder="technical-foundation", sections=None, **front):
        return self.write(f"{folder}/{slug}.md", markdown(numeric_front(slug, **front), sections or NUMERIC_SECTIONS))

    def exercise(self, slug="square-values", folder="algorithmic-complexity", files=None, sections=None, **front):
        directory = f"{folder}/{slug}"
        self.write(f"{directory}/question.md", markdown(coding_front(slug, **front), sections or CODING_SECTIONS))
        code = {"reference.py": REFERENCE, "starter.py": REFERENCE, "inputs.py": INPUTS, "solution.py": SOLUTION}
        code.update(files or {})
        for name, text in code.items():
            if text is not None:
                self.write(f"{directory}/{name}", text)
        return self.root / directory


@pytest.fixture
def bank(tmp_path):
    return BankBuilder(tmp_path / "bank")


@pytest.fixture
def small_bank(bank):
    """One question of each kind."""
    bank.concept()
    bank.numeric()
    bank.exercise()
    return bank


@pytest.fixture
def load(db):
    """Run load_bank on a directory without exercise validation."""

    def run(path, **options):
        call_command("load_bank", path=str(path), skip_validation=True, **options)

    return run


@pytest.fixture
def loaded_bank(small_bank, load):
    load(small_bank.root)
    return {question.kind: question for question in Question.objects.all()}


@pytest.fixture
def fake_validation(monkeypatch):
    """Stand in for the judge's exercise validator (the sandbox run of
    reference vs solution) and record what the loader asked it to validate."""
    import types

    from grader import validation

    calls = []

    def install(ok=True, message="", report=None):
        def validate_exercise(spec, files):
            calls.append((spec, files))
            return types.SimpleNamespace(ok=ok, message=message, report=report if report is not None else {"ok": ok})

        monkeypatch.setattr(validation, "validate_exercise", validate_exercise)
        return calls

    return install
