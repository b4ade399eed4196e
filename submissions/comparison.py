"""Did the change help? An accepted answer against the same learner's previous one.

Practising optimisation is a loop of small changes, and the question after each
is whether it made the code faster. Two gradings' speedups can be compared
even when the machine's speed moved between them: each is a ratio against the
reference timed in the same pairs. So the ratio of the two speedups is how
much faster this answer is than the previous one. Whether that is a real change or
noise is read off the two 95% intervals: when they do not overlap, the
difference is real (a conservative test: two intervals can overlap a little
and the difference still be significant); when they overlap, this page says
it cannot tell them apart rather than report a gain that may be noise.

Only like is compared with like: the same exercise version (same sizes and
reference), the same hardware, the same harness version (its timing rules),
practice gradings (a quick check has no figures; an assessment's stay with it).

When the two answers are the same program (Submission.program, submissions.same_code: names, comments and
layout aside) there is no change to judge: whatever the intervals say, the gap
between the two figures is the machine's, and the page says so. Two gradings of
one program can land with intervals apart on a busy machine, and "the
difference is your change" would then be false.
"""

from dataclasses import dataclass

from .models import Purpose, Submission
from .states import Verdict

FASTER = "faster"
SLOWER = "slower"
UNCLEAR = "unclear"
SAME_CODE = "same_code"


@dataclass(frozen=True)
class Comparison:
    previous: Submission
    #: This speedup over the previous one: above 1, this answer is the faster.
    ratio: float
    #: SAME_CODE for the same program; else FASTER or SLOWER when the two 95%
    #: intervals do not overlap, else UNCLEAR.
    outcome: str

    @property
    def slowdown(self):
        """How many times slower this answer is than the previous one."""
        return 1 / self.ratio


def against_previous(submission):
    """The Comparison with the learner's latest earlier accepted answer graded
    alike, or None when there is none or either lacks an interval."""
    if not _comparable(submission):
        return None
    previous = (
        Submission.objects.filter(
            user_id=submission.user_id,
            exercise_id=submission.exercise_id,
            hardware=submission.hardware,
            purpose=Purpose.PRACTICE,
            verdict=Verdict.ACCEPTED,
            created_at__lt=submission.created_at,
            speedup__gt=0,
            speedup_ci_low__gt=0,
            speedup_ci_high__gt=0,
            report__harness_version=submission.report.get("harness_version"),
        )
        .order_by("-created_at")
        .first()
    )
    if previous is None:
        return None
    return Comparison(previous, submission.speedup / previous.speedup, _outcome(submission, previous))


def _outcome(submission, previous):
    if submission.program == previous.program:
        return SAME_CODE
    return _intervals_outcome(submission, previous)


def _comparable(submission):
    return (
        submission.verdict == Verdict.ACCEPTED
        and submission.purpose == Purpose.PRACTICE
        and submission.report is not None
        and all(
            value is not None and value > 0
            for value in (submission.speedup, submission.speedup_ci_low, submission.speedup_ci_high)
        )
    )


def _intervals_outcome(submission, previous):
    if submission.speedup_ci_low > previous.speedup_ci_high:
        return FASTER
    if submission.speedup_ci_high < previous.speedup_ci_low:
        return SLOWER
    return UNCLEAR
