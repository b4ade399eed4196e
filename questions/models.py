"""The question bank. Files under questions/bank/ are the source; these rows are
what the site serves and what history (attempts, submissions) points at."""

from django.conf import settings
from django.db import models
from django.urls import reverse


class Difficulty(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"


class Kind(models.TextChoices):
    CONCEPT = "concept", "Concept"
    NUMERIC = "numeric", "Numeric"
    CODING = "coding", "Coding"


class Visibility(models.TextChoices):
    """Who may see a question. An assessment-only question never appears on a public page (browse,
    search, practice, progress, leaderboards): its answer cannot be looked up by a candidate."""

    PUBLIC = "public", "Public bank"
    ASSESSMENT = "assessment", "Assessments only"


DIFFICULTY_POINTS = {Difficulty.EASY: 1, Difficulty.MEDIUM: 2, Difficulty.HARD: 3}


class QuestionQuerySet(models.QuerySet):
    def live(self):
        return self.filter(retired_at__isnull=True)

    def public(self):
        """What the public pages may show; every one of them starts here."""
        return self.filter(visibility=Visibility.PUBLIC)


class Question(models.Model):
    slug = models.SlugField(max_length=120, unique=True)
    title = models.CharField(max_length=200)
    topic = models.CharField(max_length=120, db_index=True)
    tags = models.JSONField(default=list, blank=True)
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices, db_index=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, db_index=True)
    visibility = models.CharField(
        max_length=12,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        db_index=True,
        help_text="Assessments only: never shown on public pages, so candidates cannot look its answer up.",
    )
    prompt = models.TextField(help_text="Markdown: what the candidate is asked.")
    sample_answer = models.TextField(blank=True, help_text="Markdown: a strong answer, shown after answering.")
    explanation = models.TextField(blank=True, help_text="Markdown: the worked explanation (numeric questions).")
    hints = models.TextField(blank=True, help_text="Markdown: optional hints (coding exercises).")
    rubric = models.JSONField(
        default=list, blank=True, help_text="Key points a good answer covers (concept questions)."
    )
    # Numeric questions: the answer in `unit`, accepted within `tolerance` (relative, e.g. 0.01 = 1%).
    answer_value = models.FloatField(null=True, blank=True)
    answer_unit = models.CharField(max_length=40, blank=True)
    tolerance = models.FloatField(null=True, blank=True)
    # Where the file came from, and a hash of its canonical content so load_bank can tell edits apart.
    source_path = models.CharField(max_length=300, blank=True)
    content_hash = models.CharField(max_length=64, blank=True)
    extra = models.JSONField(
        default=dict, blank=True, help_text="Front-matter keys the loader carries without interpreting."
    )
    retired_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = QuestionQuerySet.as_manager()

    class Meta:
        ordering = ["topic", "difficulty", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("questions:detail", args=[self.slug])

    @property
    def is_retired(self):
        return self.retired_at is not None

    @property
    def is_public(self):
        return self.visibility == Visibility.PUBLIC

    @property
    def points(self):
        return DIFFICULTY_POINTS[self.difficulty]

    def current_exercise(self):
        """The newest version of a coding exercise, or None for other kinds and for a
        question not saved yet (an authoring preview)."""
        if self.pk is None:
            return None
        return self.exercise_versions.order_by("-number").first()


class ExerciseVersion(models.Model):
    """One immutable version of a coding exercise. Editing a published exercise
    makes a new version; submissions stay tied to the version they were graded on."""

    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="exercise_versions")
    number = models.PositiveIntegerField()
    # Parsed front matter of question.md: target, entry_point, sizes, tolerance, limits, allowed_imports...
    spec = models.JSONField(default=dict)
    reference_code = models.TextField()
    starter_code = models.TextField()
    inputs_code = models.TextField()
    solution_code = models.TextField()
    check_code = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64)
    # The last validation run (reference against solution through the sandbox), shown to authors.
    validation_report = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question", "-number"]
        constraints = [models.UniqueConstraint(fields=["question", "number"], name="unique_exercise_version")]

    def __str__(self):
        return f"{self.question.slug} v{self.number}"

    @property
    def target(self):
        return self.spec.get("target", "cpu")

    @property
    def entry_point(self):
        return self.spec["entry_point"]


class Attempt(models.Model):
    """A candidate's practice of a concept or numeric question."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="attempts")
    answer_text = models.TextField(blank=True)
    numeric_input = models.CharField(max_length=100, blank=True)
    numeric_correct = models.BooleanField(null=True)
    rubric_checked = models.JSONField(
        default=list, blank=True, help_text="Indexes of rubric points the candidate covered."
    )
    confidence = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True, help_text="0..1: rubric coverage or numeric correctness.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "question"])]

    def __str__(self):
        return f"{self.user} on {self.question.slug}"


class Draft(models.Model):
    """The answer a candidate is still writing, kept between visits."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="drafts")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "question"], name="unique_draft")]


class BankRevision(models.Model):
    """One row whose number every change to the bank raises (questions.bank_version). The
    bank's version cannot rest on the newest `updated_at` alone: an edit saved by a web host
    whose clock runs behind another's stamps an earlier time than the newest row, and the
    pages cached under the old version would be served for a day."""

    number = models.PositiveBigIntegerField(default=0)


class BankProblem(models.Model):
    """One reason the last load_bank left a bank entry out (a file it refused, an exercise
    that failed validation): what the authoring pages list until a load reads the entry.
    Each load replaces them all."""

    path = models.CharField(max_length=400, help_text="The entry's path inside the bank.")
    reason = models.TextField()
    noticed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["path", "id"]

    def __str__(self):
        return f"{self.path}: {self.reason}"


class Track(models.Model):
    """A named learning path through the bank (questions/bank/tracks.yaml): its questions
    in order, and the tracks worth finishing first. load_bank writes these rows."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    position = models.PositiveIntegerField(help_text="Where it is listed, from the order in tracks.yaml.")
    prerequisites = models.JSONField(default=list, blank=True, help_text="Slugs of the tracks to finish first.")
    question_slugs = models.JSONField(default=list, help_text="The track's questions, in the order to practise them.")

    class Meta:
        ordering = ["position"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("questions:track", args=[self.slug])
