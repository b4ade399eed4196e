"""What a speedup says once its 95% interval is read, in one place for the leaderboards,
the hiring reports and the submission page (issue 30).

Faster or not. An accepted answer counts as faster than the reference only when its
speedup interval lies wholly above 1 (its low end > 1.0); with no interval (an older
report), when its speedup itself is above 1. An interval that includes 1 or lies below
it says "correct, but not faster than the reference": the measurement cannot tell it
from the reference. The exercise's starter code submitted unchanged (the same program
fingerprint, submissions.same_code, as the starter of any version of the exercise) never
counts, whatever noise made of its figure.

Indistinguishable. Two figures cannot be told apart when their closed intervals
overlap (a missing interval is the figure alone). shared_ranks walks a ranking in its
order: an entry whose interval overlaps the interval of the first entry of the current
group joins that group, otherwise it starts a new one; every entry of a group shares the
rank of the group's first entry (its 1-based place), written "=2" when the group holds
more than one entry. Groups are runs of consecutive entries, so ranks never go down.
"""

from dataclasses import dataclass
from functools import lru_cache

from questions.models import ExerciseVersion

from .same_code import fingerprint
from .states import Speed, Verdict

#: The reference's own speed: an answer must be distinguishably above it to count as faster.
REFERENCE_SPEED = 1.0


def speed_class(speedup, speedup_ci_low, unchanged_starter=False):
    """The Speed word for an accepted answer's figures: STARTER for the unchanged starter,
    FASTER when the interval's low end (else the speedup itself) is above 1, else NOT_FASTER."""
    if unchanged_starter:
        return Speed.STARTER
    lowest_reading = speedup if speedup_ci_low is None else speedup_ci_low
    if lowest_reading is not None and lowest_reading > REFERENCE_SPEED:
        return Speed.FASTER
    return Speed.NOT_FASTER


def counts_as_faster(speedup, speedup_ci_low, unchanged_starter=False):
    """Whether an accepted answer ranks and earns speed credit: the one rule (speed_class)."""
    return speed_class(speedup, speedup_ci_low, unchanged_starter) == Speed.FASTER


@lru_cache(maxsize=512)
def _starter_fingerprint(starter_code):
    return fingerprint(starter_code)


def starter_programs(question_ids):
    """{question id: frozenset of the fingerprints of every version's starter code}."""
    found = {}
    rows = ExerciseVersion.objects.filter(question_id__in=list(question_ids)).values_list("question_id", "starter_code")
    for question_id, starter_code in rows:
        found.setdefault(question_id, set()).add(_starter_fingerprint(starter_code))
    return {question_id: frozenset(programs) for question_id, programs in found.items()}


def all_starter_programs():
    """starter_programs for every exercise, for a rebuild that reads every board."""
    return starter_programs(ExerciseVersion.objects.values_list("question_id", flat=True).distinct())


def is_unchanged_starter(submission):
    """Whether the submission is the starter code of (any version of) its exercise, as is."""
    question_id = submission.exercise.question_id
    return submission.program in starter_programs([question_id]).get(question_id, frozenset())


def submission_speed(submission, starters=None):
    """The Speed word for a graded Submission, or None when it has none to read (not
    accepted, or no speedup measured). `starters`: the exercise's starter fingerprints,
    when the caller has them already (else they are looked up)."""
    if submission.verdict != Verdict.ACCEPTED or submission.speedup is None:
        return None
    unchanged = is_unchanged_starter(submission) if starters is None else submission.program in starters
    return speed_class(submission.speedup, submission.speedup_ci_low, unchanged)


# ---- Figures that cannot be told apart ----------------------------------------------------


def interval(speedup, low, high):
    """The figure's 95% interval as (low, high); the figure alone when it has none."""
    if low is None or high is None:
        return (speedup, speedup)
    return (low, high)


def indistinguishable(first, second):
    """Whether two (low, high) intervals overlap (closed: touching ends overlap)."""
    return first[0] <= second[1] and second[0] <= first[1]


@dataclass(frozen=True)
class Rank:
    """A place in a ranking that admits ties: `number` is the 1-based place of the first
    entry of its group; `tied` says the group holds more than one entry."""

    number: int
    tied: bool = False

    @property
    def label(self):
        """'3', or '=2' for a shared rank (thousands separated: '=1,234')."""
        return f"{'=' if self.tied else ''}{self.number:,}"

    def __str__(self):
        return self.label


def shared_ranks(intervals):
    """The Rank of each (low, high) interval of a ranking given in its order (module docstring)."""
    groups = []  # [first entry's place, its interval, size]
    for place, current in enumerate(intervals, start=1):
        if groups and indistinguishable(groups[-1][1], current):
            groups[-1][2] += 1
        else:
            groups.append([place, current, 1])
    return [Rank(first, size > 1) for first, _, size in groups for _ in range(size)]
