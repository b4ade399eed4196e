from django.apps import AppConfig


class PracticeConfig(AppConfig):
    """A learner's practice on the bank: the question pages that count, list or reward
    graded work (the browse list's practice counts, a question's page with its earned
    editorial, progress, tracks). It sits above questions, submissions and teams, so it
    reads all three directly."""

    name = "practice"
    verbose_name = "Practice"
