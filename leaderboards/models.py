"""Denormalised rankings. Submissions are the truth; these tables are a cache of
"each person's best", kept current by a receiver of submissions.signals.submission_graded
and rebuilt from scratch by `manage.py rebuild_leaderboards`. Every leaderboard page
reads only these tables, through the indexes declared here."""

from django.conf import settings
from django.db import models

CPU_HARDWARE = "cpu"


def hardware_label(hardware):
    return "CPU sandbox" if hardware == CPU_HARDWARE else hardware


class LeaderboardEntry(models.Model):
    """A person's result for one exercise on one kind of hardware: their best program's
    middle grading (services.counted_grading). A program graded several times counts by
    the lower median of its gradings, so grading the same code again cannot fish for a
    lucky figure; best means highest speedup, then lower peak memory, then earlier.
    Only a counted grading that is faster than the reference (submissions.speed) has an entry.
    The exercise is the question, not the version: a new version keeps its board."""

    # No single-column indexes: the unique constraint leads with user, the board index with question.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leaderboard_entries", db_index=False
    )
    question = models.ForeignKey(
        "questions.Question", on_delete=models.CASCADE, related_name="leaderboard_entries", db_index=False
    )
    hardware = models.CharField(max_length=80)
    submission = models.ForeignKey("grader.Submission", on_delete=models.CASCADE, related_name="+")
    speedup = models.FloatField()
    # The counted grading's 95% interval: entries whose intervals overlap share a rank
    # (submissions.speed.shared_ranks). Empty when the grading has none.
    speedup_ci_low = models.FloatField(null=True, blank=True)
    speedup_ci_high = models.FloatField(null=True, blank=True)
    peak_memory_bytes = models.BigIntegerField(null=True, blank=True)
    achieved_at = models.DateTimeField(help_text="When the counted submission was made (the last tie-breaker).")
    gradings = models.PositiveIntegerField(
        default=1, help_text="How many gradings of the counted program there are; the entry holds their middle one."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "question", "hardware"], name="unique_leaderboard_entry"),
        ]
        indexes = [
            # The exercise board, page by page, and "faster than N%" (a range count on speedup).
            models.Index(
                fields=["question", "hardware", "-speedup", "peak_memory_bytes", "achieved_at", "id"],
                name="lb_entry_board",
            ),
        ]

    def __str__(self):
        return f"{self.user} on {self.question_id}/{self.hardware}: {self.speedup:.2f}x"

    @property
    def hardware_label(self):
        return hardware_label(self.hardware)


class UserScore(models.Model):
    """A person's total on the global board (see services.points_for)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="leaderboard_score"
    )
    points = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    reached_at = models.DateTimeField(
        help_text="When the current total was reached (ties go to whoever got there first)."
    )

    class Meta:
        indexes = [models.Index(fields=["-points", "reached_at", "user"], name="lb_score_rank")]

    def __str__(self):
        return f"{self.user}: {self.points} points"


class TopicScore(models.Model):
    """A person's total over the exercises of one topic."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leaderboard_topic_scores", db_index=False
    )
    topic = models.CharField(max_length=120)
    points = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    reached_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "topic"], name="unique_topic_score")]
        indexes = [models.Index(fields=["topic", "-points", "reached_at", "user"], name="lb_topic_rank")]

    def __str__(self):
        return f"{self.user} in {self.topic}: {self.points} points"
