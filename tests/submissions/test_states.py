"""submissions.states takes the verdict words from the harness; every one needs a label."""

from grader.harness import feedback
from submissions.states import Verdict


def test_every_harness_verdict_has_a_label_and_no_other():
    assert set(Verdict.LABELS) == feedback.VERDICTS
