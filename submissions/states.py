"""Submission states, and the verdicts with their labels.

The verdict words are the judge's (grader.verdicts); this adds the labels the
pages show."""

from grader import verdicts


class Status:
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"

    CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done")]
    FINAL = frozenset({DONE})
    ACTIVE = frozenset({QUEUED, RUNNING})


class Verdict(verdicts.Verdict):
    """The judge's verdicts with the labels the pages show."""

    LABELS = {
        verdicts.Verdict.ACCEPTED: "Accepted",
        verdicts.Verdict.WRONG_ANSWER: "Wrong answer",
        verdicts.Verdict.SYNTAX_ERROR: "Syntax error",
        verdicts.Verdict.RUNTIME_ERROR: "Runtime error",
        verdicts.Verdict.TIME_LIMIT: "Time limit exceeded",
        verdicts.Verdict.MEMORY_LIMIT: "Memory limit exceeded",
        verdicts.Verdict.OUTPUT_LIMIT: "Output limit exceeded",
        verdicts.Verdict.REJECTED: "Rejected",
        verdicts.Verdict.INTERNAL_ERROR: "Internal error",
    }
    CHOICES = list(LABELS.items())
    #: An accepted quick check: correct on the small inputs, nothing measured, never "Accepted".
    CHECK_PASSED_LABEL = "Correct on small inputs"
    #: An accepted run on the learner's own input: both answers the same, nothing measured.
    CUSTOM_INPUT_LABEL = "Same answer as the reference on your input"


class Speed:
    """What an accepted answer's speedup says once its 95% interval is read (submissions.speed
    decides which): faster than the reference, correct but not faster (the interval
    includes 1 or lies below it), or the exercise's starter code submitted unchanged.
    Only FASTER is ranked on a leaderboard or earns speed credit in a hiring report."""

    FASTER = "faster"
    NOT_FASTER = "not_faster"
    STARTER = "starter"

    LABELS = {
        FASTER: "Faster than the reference",
        NOT_FASTER: "Correct, but not faster than the reference",
        STARTER: "Correct, but the starter code unchanged",
    }
