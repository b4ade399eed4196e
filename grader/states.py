"""Submission states and verdicts: the one place that names them."""


class Status:
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"

    CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done")]
    FINAL = frozenset({DONE})
    ACTIVE = frozenset({QUEUED, RUNNING})


class Verdict:
    """The learner's verdicts plus the platform's one (internal_error)."""

    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    SYNTAX_ERROR = "syntax_error"  # Python could not parse the code: nothing ran
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    REJECTED = "rejected"
    INTERNAL_ERROR = "internal_error"

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
