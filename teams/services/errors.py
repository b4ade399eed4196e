"""The refusals teams' services raise, each with a message written for the person who asked."""


class TeamsError(Exception):
    """A refusal with a message written for the person who asked."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class SessionClosed(TeamsError):
    """The candidate's time is up (or they already submitted)."""


class SignInRequired(TeamsError):
    """An account with the invited e-mail exists: its owner must sign in."""
