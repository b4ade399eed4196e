"""A small bank for mock interviews: one question of each kind in one topic, each a
tiny coding exercise on the CPU (never graded here: submissions stay queued)."""
import pytest

from questions.models import ExerciseVersion, Kind, Question

TOPIC = "Algorithmic Complexity & Code-Level Optimization"
STARTER = "def transform(values):\n    return values\n"


def make_question(slug, kind, topic=TOPIC, difficulty="easy", **fields):
    return Question.objects.create(slug=slug, title=slug.replace("-", " ").capitalize(), topic=topic,
                                   difficulty=difficulty, kind=kind, prompt=f"Prompt of {slug}.", **fields)


def make_concept(slug, **fields):
    return make_question(slug, Kind.CONCEPT, sample_answer="Copies form a geometric series.",
                         rubric=["Doubling copies n items", "Geometric series"], **fields)


def make_numeric(slug, **fields):
    return make_question(slug, Kind.NUMERIC, answer_value=4 * 2**30, answer_unit="bytes", tolerance=0.01, **fields)


def make_coding(slug, target="cpu", **fields):
    question = make_question(slug, Kind.CODING, **fields)
    ExerciseVersion.objects.create(
        question=question, number=1, content_hash=f"hash-{slug}",
        spec={"target": target, "entry_point": "transform", "sizes": [10]},
        reference_code="def transform(values):\n    return [v * v for v in values]\n",
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
        solution_code="def transform(values):\n    return [v * v for v in values]\n",
    )
    return question


@pytest.fixture
def small_bank(db):
    """{kind: question}: one concept, one numeric and one CPU coding exercise, all easy."""
    return {
        Kind.CONCEPT: make_concept("doubling-table"),
        Kind.NUMERIC: make_numeric("gib-in-bytes"),
        Kind.CODING: make_coding("square-values"),
    }


@pytest.fixture
def learner(make_user):
    return make_user("mock-learner")
