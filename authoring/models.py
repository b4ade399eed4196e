from django.conf import settings
from django.db import models

from questions.models import ExerciseVersion, Question


class AuthoringEvent(models.Model):
    """What an author did to a bank question from the authoring pages: who wrote or
    edited it, who validated, who made a new exercise version, who exported to the
    bank, who published or unpublished it."""

    class Action(models.TextChoices):
        CREATED = "created", "Created it"
        EDITED = "edited", "Edited it"
        VALIDATED = "validated", "Validated"
        NEW_VERSION = "new_version", "Created a new version"
        EXPORTED = "exported", "Exported to the bank"
        PUBLISHED = "published", "Made it public"
        UNPUBLISHED = "unpublished", "Took it off the public pages"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="authoring_events")
    exercise_version = models.ForeignKey(
        ExerciseVersion, on_delete=models.SET_NULL, null=True, blank=True, related_name="authoring_events"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table teams created before authoring became its own app: the rows stay where they are.
        db_table = "teams_authoringevent"
        ordering = ["-created_at"]
        permissions = [("author_questions", "Can edit, validate and export bank questions")]

    def __str__(self):
        return f"{self.user} {self.action} {self.question.slug}"
