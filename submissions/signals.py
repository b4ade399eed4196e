"""Signals the grader sends. submission_graded: sent once, with sender=Submission
and kwarg submission, when a row reaches a final state (the leaderboards listen)."""

from django.dispatch import Signal

submission_graded = Signal()
