"""Submission states, and the verdicts with their labels.

The verdict words are the harness's (grader/harness/feedback.py): it decides most
verdicts inside the sandbox and imports nothing from Django, so it owns the names
and the host takes them from there."""
from .harness import feedback


class Status:
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"

    CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done")]
    FINAL = frozenset({DONE})
    ACTIVE = frozenset({QUEUED, RUNNING})


class Verdict:
    """The learner's verdicts plus the platform's one (internal_error)."""

    ACCEPTED = feedback.ACCEPTED
    WRONG_ANSWER = feedback.WRONG_ANSWER
    SYNTAX_ERROR = feedback.SYNTAX_ERROR  # Python could not parse the code: nothing ran
    RUNTIME_ERROR = feedback.RUNTIME_ERROR
    TIME_LIMIT = feedback.TIME_LIMIT
    MEMORY_LIMIT = feedback.MEMORY_LIMIT
    OUTPUT_LIMIT = feedback.OUTPUT_LIMIT
    REJECTED = feedback.REJECTED
    INTERNAL_ERROR = feedback.INTERNAL_ERROR

    LABELS = {
        ACCEPTED: "Accepted",
        WRONG_ANSWER: "Wrong answer",
        SYNTAX_ERROR: "Syntax error",
        RUNTIME_ERROR: "Runtime error",
        TIME_LIMIT: "Time limit exceeded",
        MEMORY_LIMIT: "Memory limit exceeded",
        OUTPUT_LIMIT: "Output limit exceeded",
        REJECTED: "Rejected",
        INTERNAL_ERROR: "Internal error",
    }
    CHOICES = list(LABELS.items())
    ALL = frozenset(LABELS)


class Speed:
    """What an accepted answer's speedup says once its 95% interval is read (grader.speed
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
