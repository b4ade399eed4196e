"""Bank questions for the mock interview tests; each coding exercise is tiny and on the
CPU (the tests never grade it: their submissions stay queued)."""

from questions.models import ExerciseVersion, Kind, Question

TOPIC = "Algorithmic Complexity & Code-Level Optimization"
STARTER = "def transform(values):\n    return values\n"


def make_question(slug, kind, topic=TOPIC, difficulty="easy", **fields):
    return Question.objects.create(
        slug=slug,
        title=slug.replace("-", " ").capitalize(),
        topic=topic,
        difficulty=difficulty,
        kind=kind,
        prompt=f"Prompt of {slug}.",
        **fields,
    )


def make_concept(slug, **fields):
    return make_question(
        slug,
        Kind.CONCEPT,
        sample_answer="Copies form a geometric series.",
        rubric=["Doubling copies n items", "Geometric series"],
        **fields,
    )


def make_numeric(slug, **fields):
    return make_question(slug, Kind.NUMERIC, answer_value=4 * 2**30, answer_unit="bytes", tolerance=0.01, **fields)


def make_coding(slug, target="cpu", **fields):
    question = make_question(slug, Kind.CODING, **fields)
    ExerciseVersion.objects.create(
        question=question,
        number=1,
        content_hash=f"hash-{slug}",
        spec={"target": target, "entry_point": "transform", "sizes": [10]},
        reference_code="def transform(values):\n    return [v * v for v in values]\n",
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
        solution_code="def transform(values):\n    return [v * v for v in values]\n",
    )
    return question
