"""Gradings of the same program, told apart from gradings of another: what a
resubmission of the same code counts as (submissions.same_code)."""

import importlib
from dataclasses import dataclass

from django.apps import apps as django_apps

from submissions.models import Submission
from submissions.same_code import by_program, fingerprint, middle_grading

LOOP = """
def transform(x):
    out = []
    for v in x:
        out.append(v * v)
    return out
"""
LOOP_RENAMED = '''
def transform(values):
    """Squares, one at a time."""
    result = []   # grows
    for item in values:
        result.append(item * item)
    return result
'''
VECTORISED = "import numpy as np\n\ndef transform(x):\n    return np.square(x)\n"


@dataclass
class Grading:
    code: str
    speedup: float

    @property
    def program(self):
        return fingerprint(self.code)


def test_names_comments_docstrings_and_layout_do_not_make_another_program():
    assert fingerprint(LOOP) == fingerprint(LOOP_RENAMED) == fingerprint(LOOP + "\n\n# done\n")
    assert fingerprint(LOOP) != fingerprint(VECTORISED)
    # What the code does is another program: another expression, another literal, another attribute.
    assert fingerprint(VECTORISED) != fingerprint(VECTORISED.replace("np.square(x)", "x ** 2"))
    assert fingerprint(LOOP) != fingerprint(LOOP.replace("v * v", "v * v * 1"))
    assert fingerprint(VECTORISED) != fingerprint(VECTORISED.replace("square", "sqrt"))
    # Code that does not parse still has one.
    broken = "def broken(:\n    return 1\n"
    assert (
        fingerprint(broken) == fingerprint(broken.replace("broken", "other")) != fingerprint(broken.replace("1", "2"))
    )


def one_per_program(gradings):
    return [middle_grading(group, lambda grading: grading.speedup) for group in by_program(gradings)]


def test_one_grading_per_program_its_lower_median():
    gradings = [
        Grading(LOOP, 1.0),
        Grading(VECTORISED, 12.0),
        Grading(LOOP_RENAMED, 1.2),
        Grading(VECTORISED, 8.0),
        Grading(VECTORISED + "\n", 9.0),
        Grading(VECTORISED, 30.0),
    ]
    # LOOP read 1.0 and 1.2: the lower of the two middles, an actual grading. VECTORISED read
    # 12, 8, 9 and 30: 9 (the lower median), not 30 (the best) nor 10.5 (an average).
    assert one_per_program(gradings) == [gradings[0], gradings[4]]
    assert one_per_program([]) == []
    assert one_per_program(gradings[1:2]) == [gradings[1]]


def test_gradings_grouped_by_program():
    gradings = [
        Grading(LOOP, 1.0),
        Grading(VECTORISED, 12.0),
        Grading(LOOP_RENAMED, 1.2),
        Grading(VECTORISED + "# x\n", 0),
    ]
    assert by_program(gradings) == [[gradings[0], gradings[2]], [gradings[1], gradings[3]]]
    assert by_program([]) == []


def test_code_nested_deeper_than_python_recurses_still_has_a_fingerprint():
    """A sum of a thousand terms is a tree a thousand deep: parsing or printing it back
    raised RecursionError, and the team's report page and the submission page failed."""
    deep = "x = " + "+".join(["1"] * 5000) + "\n"
    assert fingerprint(deep) == fingerprint(deep) != fingerprint(deep.replace("1+1", "1+2", 1))


def test_a_submission_keeps_its_programs_fingerprint(make_user, exercise_version):
    submission = Submission.objects.create(user=make_user("alice"), exercise=exercise_version, code=LOOP)
    assert submission.program == fingerprint(LOOP) == Submission.objects.get().program


def test_the_migration_fingerprints_rows_made_before_it(make_user, exercise_version, monkeypatch):
    migration = importlib.import_module("submissions.migrations.0004_submission_program")
    monkeypatch.setattr(migration, "BATCH", 2)
    user = make_user("alice")
    made = [
        Submission.objects.create(user=user, exercise=exercise_version, code=code)
        for code in (LOOP, VECTORISED, LOOP_RENAMED)
    ]
    Submission.objects.update(program="")

    migration.fingerprint_existing(django_apps, None)

    assert {row.pk: row.program for row in Submission.objects.all()} == {row.pk: fingerprint(row.code) for row in made}


# -- issue 29, finding 4: the fingerprint dropped what a program imports ----------------------

SQUARE_ROOTS = """
import numpy as np

def transform(x):
    out = []
    for v in x:
        out.append(np.sqrt(v))
    return out
"""


def test_what_a_program_imports_is_part_of_the_program():
    """The same loop text importing `math as np` and `numpy as np` shared one fingerprint, so
    their gradings were counted as one program's."""
    assert fingerprint(SQUARE_ROOTS) != fingerprint(SQUARE_ROOTS.replace("import numpy as np", "import math as np"))
    from_numpy = "from numpy import sqrt\n\ndef transform(x):\n    return sqrt(x)\n"
    assert fingerprint(from_numpy) != fingerprint(from_numpy.replace("numpy", "math"))
    assert fingerprint("from numpy import sqrt as f\n") != fingerprint("from numpy import cbrt as f\n")
    dotted = "import numpy.linalg as la\n\ndef transform(x):\n    return la.norm(x)\n"
    assert fingerprint(dotted) != fingerprint(dotted.replace("numpy.linalg", "scipy.linalg"))


def test_local_names_for_what_is_imported_still_do_not_count():
    assert (
        fingerprint(SQUARE_ROOTS)
        == fingerprint(SQUARE_ROOTS.replace("np", "xp"))
        == fingerprint("# roots\n" + SQUARE_ROOTS)
    )
    aliased = "from numpy import sqrt as root\n\ndef transform(x):\n    return root(x)\n"
    assert fingerprint(aliased) == fingerprint(aliased.replace("root", "r"))
    assert fingerprint("import numpy\nimport math\n") == fingerprint("import numpy\n\n\nimport math  # both\n")


def test_the_migration_fingerprints_every_row_again(make_user, exercise_version, monkeypatch):
    """A change to the normaliser changes fingerprints (docs/architecture.md, "Which grading
    counts"): rows fingerprinted by the old one are fingerprinted again."""
    migration = importlib.import_module("submissions.migrations.0005_submission_program_keeps_imports")
    monkeypatch.setattr(migration, "BATCH", 2)
    user = make_user("alice")
    made = [
        Submission.objects.create(user=user, exercise=exercise_version, code=code)
        for code in (SQUARE_ROOTS, SQUARE_ROOTS.replace("numpy", "math"), LOOP)
    ]
    Submission.objects.update(program="an-old-fingerprint")

    migration.fingerprint_again(django_apps, None)

    assert {row.pk: row.program for row in Submission.objects.all()} == {row.pk: fingerprint(row.code) for row in made}
