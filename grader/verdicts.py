"""The verdicts the judge decides, as one namespace. The words are the harness's
(grader/harness/feedback.py), which decides most of them inside the sandbox."""

from .harness import feedback


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
    ALL = feedback.VERDICTS
