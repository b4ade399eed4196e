"""The grader's two error families, each with a stable id.

- LearnerError: something about the submission itself. It becomes a verdict and
  its message is written for the learner.
- PlatformError: something wrong with the grading machinery (no bwrap, no disk,
  a broken harness). It is retried and logged; learners only ever see a generic
  "we could not grade this" message, never its details.

Ids are dotted, lowercase and stable: logs, tests and alerts match on them.
"""


class GraderError(Exception):
    error_id = "grader.error"

    def __init__(self, error_id: str | None = None, message: str = "", **details: object) -> None:
        self.error_id = error_id or self.error_id
        self.message = message
        self.details = details
        super().__init__(f"[{self.error_id}] {message}" if message else self.error_id)


class LearnerError(GraderError):
    """A problem with the submitted code; carries the verdict it becomes."""

    error_id = "learner.error"

    def __init__(self, error_id: str, message: str, verdict: str, **details: object) -> None:
        super().__init__(error_id, message, **details)
        self.verdict = verdict


class PlatformError(GraderError):
    """The platform could not grade; retry later. Details are for staff only."""

    error_id = "platform.error"

    #: What learners see instead of the details.
    PUBLIC_MESSAGE = "Hotpath could not grade this submission because of a problem on our side. It has been logged."
