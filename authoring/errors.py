"""The authoring pages' one refusal."""


class AuthoringError(Exception):
    """A refusal with a message written for the author, and the reasons behind it when
    there are several (each a line the author can act on)."""

    def __init__(self, message, reasons=()):
        super().__init__(message)
        self.message = message
        self.reasons = list(reasons)
