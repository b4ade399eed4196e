"""A mock interview: a timed set of bank questions a learner sits alone, drawn from
what they have not seen, then a report. The server's `deadline` is the rule: answers
after it are refused, and the interview is closed at the deadline once anyone reads it."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone


class Length(models.IntegerChoices):
    SHORT = 20, "20 minutes"
    MEDIUM = 45, "45 minutes"
    LONG = 60, "60 minutes"


class FinishReason(models.TextChoices):
    SUBMITTED = "submitted", "Submitted"
    EXPIRED = "expired", "Time ran out"


class MockInterview(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mock_interviews")
    minutes = models.PositiveSmallIntegerField(choices=Length.choices)
    topics = models.JSONField(default=list, blank=True, help_text="The topics chosen; empty: every topic.")
    difficulty = models.CharField(max_length=10, blank=True, help_text="The level chosen; empty: any level.")
    pool_note = models.TextField(blank=True, help_text="Why some questions were seen before, or fewer were drawn.")
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    finish_reason = models.CharField(max_length=10, choices=FinishReason.choices, blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"{self.user}'s {self.minutes}-minute mock interview"

    def get_absolute_url(self):
        return reverse("mock_interviews:report", args=[self.pk])

    @property
    def is_finished(self):
        return self.finished_at is not None

    def is_past_deadline(self, now=None):
        return (now or timezone.now()) >= self.deadline

    def seconds_left(self, now=None):
        return max(int((self.deadline - (now or timezone.now())).total_seconds()), 0)


class MockItem(models.Model):
    """One drawn question and the learner's answer to it. Concept and numeric answers are
    kept here while the clock runs and recorded as a questions.Attempt when the interview
    ends (so progress and calibration count them); code is graded as submissions."""

    interview = models.ForeignKey(MockInterview, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    question = models.ForeignKey("questions.Question", on_delete=models.PROTECT, related_name="+")
    exercise_version = models.ForeignKey(
        "questions.ExerciseVersion", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seen_before = models.BooleanField(default=False, help_text="Drawn from seen questions: the unseen pool ran out.")
    text = models.TextField(blank=True, help_text="A concept answer, or a coding answer's code as last typed.")
    numeric_input = models.CharField(max_length=100, blank=True)
    confidence = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1-5, given before the answer is shown."
    )
    attempt = models.OneToOneField(
        "questions.Attempt", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submissions = models.ManyToManyField("grader.Submission", blank=True, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["interview", "position"]
        constraints = [models.UniqueConstraint(fields=["interview", "position"], name="unique_mock_item_position")]

    def __str__(self):
        return f"Q{self.number} of {self.interview}"

    @property
    def number(self):
        return self.position + 1
