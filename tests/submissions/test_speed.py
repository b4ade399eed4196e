"""submissions.speed: when an accepted answer counts as faster than the reference, and when
two answers' figures cannot be told apart (issue 30)."""

import pytest

from questions.models import ExerciseVersion
from submissions import speed
from submissions.models import Submission
from submissions.states import Speed, Verdict

from .conftest import TINY_FILES


@pytest.mark.parametrize(
    "speedup, ci_low, expected",
    [
        (2.0, 1.5, Speed.FASTER),
        (1.3, 1.01, Speed.FASTER),
        (1.3, 1.0, Speed.NOT_FASTER),  # the interval includes 1: not faster
        (1.1, 0.9, Speed.NOT_FASTER),
        (0.8, 0.7, Speed.NOT_FASTER),  # wholly below 1
        (1.2, None, Speed.FASTER),  # no interval: the figure itself decides
        (1.0, None, Speed.NOT_FASTER),
        (0.5, None, Speed.NOT_FASTER),
        (None, None, Speed.NOT_FASTER),
    ],
)
def test_an_interval_that_reaches_1_is_not_faster(speedup, ci_low, expected):
    assert speed.speed_class(speedup, ci_low) == expected
    assert speed.counts_as_faster(speedup, ci_low) == (expected == Speed.FASTER)


def test_the_unchanged_starter_never_counts_even_above_1():
    assert speed.speed_class(1.4, 1.2, unchanged_starter=True) == Speed.STARTER
    assert not speed.counts_as_faster(1.4, 1.2, unchanged_starter=True)


def test_every_class_has_a_label():
    assert set(Speed.LABELS) == {Speed.FASTER, Speed.NOT_FASTER, Speed.STARTER}
    assert Speed.LABELS[Speed.NOT_FASTER] == "Correct, but not faster than the reference"


def test_the_starter_is_recognised_by_its_fingerprint_on_any_version(candidate, exercise_version):
    renamed = TINY_FILES["starter.py"].replace("def ", "# the starter, tidied\ndef ", 1)
    as_is = Submission.objects.create(user=candidate, exercise=exercise_version, code=renamed)
    changed = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="def scale(x):\n    return x * 3.0 + 1.0\n"
    )
    assert speed.is_unchanged_starter(as_is)
    assert not speed.is_unchanged_starter(changed)
    # A later version's submission of the first version's starter is still the starter.
    later = ExerciseVersion.objects.create(
        question=exercise_version.question,
        number=2,
        spec=exercise_version.spec,
        reference_code=exercise_version.reference_code,
        starter_code="def scale(x):\n    return x\n",
        inputs_code="",
        solution_code="",
        content_hash="tiny-2",
    )
    old_starter_on_v2 = Submission.objects.create(user=candidate, exercise=later, code=TINY_FILES["starter.py"])
    assert speed.is_unchanged_starter(old_starter_on_v2)


def test_submission_speed_reads_the_row(candidate, exercise_version):
    def graded(code, speedup, low):
        return Submission(
            user=candidate,
            exercise=exercise_version,
            code=code,
            verdict=Verdict.ACCEPTED,
            speedup=speedup,
            speedup_ci_low=low,
            speedup_ci_high=None if low is None else speedup * 1.2,
            program="",
        )

    mine = "def scale(x):\n    return x * 3.0 + 1.0\n"
    for submission in (graded(mine, 1.1, 0.95), graded(mine, 3.0, 2.5), graded(TINY_FILES["starter.py"], 1.3, 1.1)):
        submission.save()
    results = [speed.submission_speed(s) for s in Submission.objects.order_by("pk")]
    assert results == [Speed.NOT_FASTER, Speed.FASTER, Speed.STARTER]
    assert (
        speed.submission_speed(Submission(exercise=exercise_version, code=mine, verdict=Verdict.WRONG_ANSWER)) is None
    )


def test_overlap_is_closed_and_a_missing_interval_is_the_figure_itself():
    assert speed.interval(2.0, 1.8, 2.2) == (1.8, 2.2)
    assert speed.interval(2.0, None, None) == (2.0, 2.0)
    assert speed.indistinguishable((1.8, 2.2), (2.2, 2.5))
    assert not speed.indistinguishable((1.8, 2.2), (2.21, 2.5))
    assert speed.indistinguishable((2.0, 2.0), (1.5, 2.5))


def test_shared_ranks_group_by_the_first_entry_of_each_group():
    intervals = [
        (9.0, 11.0),  # 1
        (8.5, 9.5),  # overlaps the first: =1
        (7.0, 8.9),  # overlaps the second but not the first: starts its own group at 3
        (8.0, 8.2),  # overlaps the group's first (7.0-8.9): =3
        (5.0, 6.0),  # 5, alone
        (3.0, 4.0),  # 6, alone
    ]
    ranks = speed.shared_ranks(intervals)
    assert [(rank.number, rank.tied) for rank in ranks] == [
        (1, True),
        (1, True),
        (3, True),
        (3, True),
        (5, False),
        (6, False),
    ]
    assert [rank.label for rank in ranks] == ["=1", "=1", "=3", "=3", "5", "6"]
    assert speed.shared_ranks([]) == []
    assert speed.Rank(1234, True).label == "=1,234"
