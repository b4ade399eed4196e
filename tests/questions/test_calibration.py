"""Calibration maths: mean score per confidence level and the overall error."""

import pytest

from questions.models import Attempt
from questions.services.calibration import calibration, normalised_confidence, user_calibration


def test_normalised_confidence_spans_zero_to_one():
    assert [normalised_confidence(c) for c in (1, 2, 3, 4, 5)] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_mean_score_and_count_per_level():
    result = calibration([(5, 1.0), (5, 0.5), (3, 0.25), (1, 0.0)])
    by_level = {level.confidence: (level.count, level.mean_score) for level in result.levels}
    assert by_level == {1: (1, 0.0), 2: (0, None), 3: (1, 0.25), 4: (0, None), 5: (2, 0.75)}
    assert result.count == 4


def test_calibration_error_is_mean_absolute_gap():
    # gaps: |1-1| = 0, |1-0.5| = 0.5, |0.5-0.25| = 0.25, |0-0| = 0  -> mean 0.1875
    assert calibration([(5, 1.0), (5, 0.5), (3, 0.25), (1, 0.0)]).error == pytest.approx(0.1875)


def test_perfect_and_worst_calibration():
    assert calibration([(1, 0.0), (3, 0.5), (5, 1.0)]).error == 0
    assert calibration([(5, 0.0), (1, 1.0)]).error == 1


def test_no_scored_answers():
    result = calibration([(None, 1.0), (3, None)])
    assert result.error is None
    assert result.count == 0
    assert all(level.count == 0 and level.mean_score is None for level in result.levels)


@pytest.mark.django_db
def test_user_calibration_reads_only_their_scored_attempts(loaded_bank, candidate, outsider):
    question = loaded_bank["concept"]
    Attempt.objects.create(user=candidate, question=question, confidence=5, score=0.5)
    Attempt.objects.create(user=candidate, question=question, confidence=None, score=None)  # revealed, not marked
    Attempt.objects.create(user=outsider, question=question, confidence=1, score=1.0)
    result = user_calibration(candidate)
    assert result.count == 1
    assert result.error == pytest.approx(0.5)


@pytest.mark.django_db
def test_only_the_first_answer_to_each_question_counts(loaded_bank, candidate):
    numeric, concept = loaded_bank["numeric"], loaded_bank["concept"]
    Attempt.objects.create(user=candidate, question=numeric, confidence=5, score=0.0)  # the first try: wrong
    for _ in range(14):  # retries after the answer was revealed
        Attempt.objects.create(user=candidate, question=numeric, confidence=5, score=1.0)
    Attempt.objects.create(user=candidate, question=concept, confidence=3, score=None)  # revealed, not marked yet
    Attempt.objects.create(user=candidate, question=concept, confidence=5, score=1.0)  # a retry after the reveal
    result = user_calibration(candidate)
    assert result.count == 1 and result.error == 1.0
    first_concept = Attempt.objects.filter(question=concept).earliest("created_at")
    first_concept.score = 0.5
    first_concept.save()
    assert user_calibration(candidate).count == 2
