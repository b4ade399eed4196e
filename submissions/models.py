"""The Submission row is the truth: the web creates it, a worker grades it and
writes the report back, and every page reads it."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from .same_code import fingerprint
from .states import Status, Verdict


class Purpose(models.TextChoices):
    PRACTICE = "practice", "Practice"
    QUICK_CHECK = "check", "Quick check"  # small inputs, correctness only; never ranked
    ASSESSMENT = "assessment", "Assessment"  # never on public leaderboards
    # A candidate's quick check in a sitting: graded as a quick check, never scored, and like
    # ASSESSMENT kept off the candidate's own practice pages, API and export.
    ASSESSMENT_CHECK = "assess_check", "Quick check in an assessment"
    VALIDATION = "validation", "Author validation"


#: Purposes graded as a quick check: small inputs, correctness only.
CHECK_PURPOSES = (Purpose.QUICK_CHECK, Purpose.ASSESSMENT_CHECK)
#: Made in an assessment sitting: the candidate sees them on the sitting's pages only, as far as
#: the assessment's owner allows; the learner's own pages (submissions, progress, the exercise's
#: list), the API and the export leave them out. Staff still reach them.
SITTING_PURPOSES = (Purpose.ASSESSMENT, Purpose.ASSESSMENT_CHECK)


def queue_for(target, purpose):
    """The Celery queue a submission goes to: GPU work to `gpu`; on the CPU, quick checks
    to `check`, which has a worker of its own so a check never waits behind full gradings."""
    if target == "gpu":
        return "gpu"
    return "check" if purpose in CHECK_PURPOSES else "cpu"


class Submission(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions")
    exercise = models.ForeignKey("questions.ExerciseVersion", on_delete=models.PROTECT, related_name="submissions")
    code = models.TextField()
    program = models.CharField(
        max_length=32,
        blank=True,
        editable=False,
        help_text="The code's fingerprint (submissions.same_code): gradings of the same program share it.",
    )
    purpose = models.CharField(max_length=12, choices=Purpose.choices, default=Purpose.PRACTICE)
    custom_input = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="A quick check on the learner's own input (grader/harness/custom_input.py): "
        '{"size", "seed", "args"}, each null when not given; null for every other submission.',
    )
    status = models.CharField(max_length=10, choices=Status.CHOICES, default=Status.QUEUED, db_index=True)
    verdict = models.CharField(max_length=20, choices=Verdict.CHOICES, blank=True)
    message = models.TextField(blank=True, help_text="Feedback shown to the learner.")
    report = models.JSONField(null=True, blank=True)
    # Denormalised headline figures, for ranking and reports.
    speedup = models.FloatField(null=True, blank=True)
    speedup_ci_low = models.FloatField(null=True, blank=True)
    speedup_ci_high = models.FloatField(null=True, blank=True)
    peak_memory_bytes = models.BigIntegerField(null=True, blank=True)
    reference_peak_memory_bytes = models.BigIntegerField(null=True, blank=True)
    hardware = models.CharField(max_length=80, blank=True, help_text="Where it was graded: 'cpu' or the GPU model.")
    # Platform bookkeeping: how many times a worker picked it up, and the platform error if any (staff only).
    attempts = models.PositiveSmallIntegerField(default=0)
    platform_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["user", "status"]),
        ]

    def __str__(self):
        return f"Submission {self.pk} ({self.exercise}, {self.status})"

    def save(self, *args, **kwargs):
        # Set once, from the code the row was made with: the code never changes after.
        if not self.program:
            self.program = fingerprint(self.code)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("submissions:detail", args=[self.pk])

    @property
    def is_final(self):
        return self.status in Status.FINAL

    @property
    def queue(self):
        return queue_for(self.exercise.target, self.purpose)

    @property
    def verdict_label(self):
        if self.verdict == Verdict.ACCEPTED and self.purpose in CHECK_PURPOSES:
            return Verdict.CUSTOM_INPUT_LABEL if self.custom_input is not None else Verdict.CHECK_PASSED_LABEL
        return Verdict.LABELS.get(self.verdict, "")

    #: What the timings download keeps of each size (the rest of the report is on the page).
    TIMING_FIELDS = (
        "size",
        "pairs",
        "speedup",
        "speedup_ci",
        "time_s",
        "reference_time_s",
        "transfer_overhead_s",
        "calls",
    )

    def timings(self):
        """Every timed call of a graded submission, for anyone who wants to check
        the figures (grader.harness.stats recomputes them from `calls`); None
        when the report has none (a quick check, a failure, an older harness)."""
        report = self.report or {}
        sizes = [entry for entry in report.get("sizes") or [] if entry.get("calls")]
        if not sizes:
            return None
        return {
            "submission": self.pk,
            "exercise": self.exercise.question.slug,
            "exercise_version": self.exercise.number,
            "harness_version": report.get("harness_version"),
            "speedup": report.get("speedup"),
            "speedup_ci": report.get("speedup_ci"),
            "sizes": [{field: entry.get(field) for field in self.TIMING_FIELDS} for entry in sizes],
        }
