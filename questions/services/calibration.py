"""Calibration: how well a learner's stated confidence matches their scores."""

from dataclasses import dataclass

from ..models import Attempt

CONFIDENCE_LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class CalibrationLevel:
    confidence: int
    count: int
    mean_score: float | None

    @property
    def expected_score(self):
        """What a perfectly calibrated candidate would score at this confidence."""
        return normalised_confidence(self.confidence)


@dataclass(frozen=True)
class Calibration:
    levels: list
    error: float | None  # mean |confidence_normalised - score|; None with no scored attempts
    count: int


def normalised_confidence(confidence):
    return (confidence - 1) / 4


def calibration(pairs):
    """Calibration from (confidence 1-5, score 0-1) pairs: mean score and count
    per confidence level, and the mean absolute gap between normalised confidence
    ((c-1)/4) and score."""
    pairs = [(c, s) for c, s in pairs if c in CONFIDENCE_LEVELS and s is not None]
    levels = []
    for level in CONFIDENCE_LEVELS:
        scores = [score for confidence, score in pairs if confidence == level]
        levels.append(CalibrationLevel(level, len(scores), sum(scores) / len(scores) if scores else None))
    error = sum(abs(normalised_confidence(c) - s) for c, s in pairs) / len(pairs) if pairs else None
    return Calibration(levels=levels, error=error, count=len(pairs))


def user_calibration(user):
    """Calibration over the user's first answer to each question (once it is
    scored): every later try comes after the answer was shown, so it would
    measure memory, not judgement."""
    first = {}
    attempts = Attempt.objects.filter(user=user).order_by("created_at", "pk")
    for question_id, confidence, score in attempts.values_list("question_id", "confidence", "score"):
        first.setdefault(question_id, (confidence, score))
    return calibration(first.values())
