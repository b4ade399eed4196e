"""What the API sends and accepts. Explicit fields, so the OpenAPI schema says exactly
what a client gets; nothing here decides anything (services do)."""

from drf_spectacular.utils import extend_schema_field
from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from submissions import comparison
from grader.grading import exercise_limits
from grader.harness import input_rules as custom_inputs
from submissions.models import Purpose
from submissions.states import Status, Verdict
from questions.models import Difficulty, Kind

from .models import Scope

#: Of a submission's report, the per-size fields the API lists (every timed call is at /timings/).
SIZE_FIELDS = ("size", "pairs", "speedup", "speedup_ci", "time_s", "reference_time_s", "peak_memory_bytes")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, lowercase id, e.g. not_found, token_expired, rate_limited.")
    message = serializers.CharField(help_text="For people; may be reworded.")
    fields = serializers.DictField(required=False, help_text="Per-field problems, for a request that did not validate.")


def paginated(item_serializer):
    """The page envelope of a list endpoint (api.pagination.Pagination)."""
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item_serializer(many=True),
    }
    return type(
        f"Paginated{item_serializer.__name__.removesuffix('Serializer')}List", (serializers.Serializer,), fields
    )


class PageParamsSerializer(serializers.Serializer):
    page = serializers.IntegerField(
        required=False, min_value=1, max_value=1_000_000, help_text="1-based; past the last page is a 404."
    )
    page_size = serializers.IntegerField(
        required=False, min_value=1, max_value=200, help_text="Default 50, at most 200."
    )


class QuestionFilterSerializer(PageParamsSerializer):
    topic = serializers.CharField(required=False, max_length=120, help_text="A topic's name or its slug.")
    kind = serializers.ChoiceField(choices=Kind.choices, required=False)
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    q = serializers.CharField(
        required=False, max_length=200, help_text="Words that must all appear in the title, prompt or tags."
    )


class QuestionSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    topic = serializers.CharField()
    difficulty = serializers.ChoiceField(choices=Difficulty.choices)
    kind = serializers.ChoiceField(choices=Kind.choices)
    tags = serializers.ListField(child=serializers.CharField())
    web_url = serializers.SerializerMethodField()

    def get_web_url(self, question) -> str:
        return self.context["request"].build_absolute_uri(question.get_absolute_url())


class QuestionDetailSerializer(QuestionSerializer):
    prompt = serializers.CharField(help_text="Markdown, maths in $…$.")


class ExerciseLimitsSerializer(serializers.Serializer):
    time_s = serializers.FloatField()
    memory_mb = serializers.FloatField()
    processes = serializers.IntegerField()
    output_kb = serializers.FloatField()
    disk_mb = serializers.FloatField()


class ExerciseSerializer(QuestionSerializer):
    """A coding exercise's current version: what to write, under which limits."""

    version = serializers.IntegerField(source="current.number")
    target = serializers.CharField(source="current.target", help_text="cpu or gpu")
    entry_point = serializers.CharField(source="current.entry_point", help_text="The function to define.")


class TrackItemSerializer(serializers.Serializer):
    slug = serializers.CharField(source="question.slug")
    title = serializers.CharField(source="question.title")
    kind = serializers.CharField(source="question.kind")
    difficulty = serializers.CharField(source="question.difficulty")
    practised = serializers.BooleanField(help_text="The caller answered or submitted it (false without a login).")
    solved = serializers.BooleanField(
        help_text="Accepted (coding), within tolerance (numeric), half the rubric (concept)."
    )


class TrackSerializer(serializers.Serializer):
    """A learning path and the caller's progress along it."""

    slug = serializers.CharField(source="track.slug")
    name = serializers.CharField(source="track.name")
    description = serializers.CharField(source="track.description", help_text="Markdown; may be empty.")
    prerequisites = serializers.ListField(
        child=serializers.CharField(), source="track.prerequisites", help_text="Track slugs."
    )
    questions = serializers.SerializerMethodField()
    solved = serializers.IntegerField(source="solved_count")
    practised = serializers.IntegerField(source="practised_count")
    next = serializers.SerializerMethodField(
        help_text="The first question not yet solved; null when the track is done."
    )

    def get_questions(self, progress) -> int:
        return len(progress.items)

    def get_next(self, progress) -> str | None:
        return progress.next_item.question.slug if progress.next_item else None


class TrackDetailSerializer(TrackSerializer):
    items = TrackItemSerializer(many=True)


class EditorialSerializer(serializers.Serializer):
    sample_answer = serializers.CharField(help_text="Markdown: a strong answer and the reasoning behind it.")
    solution_code = serializers.CharField(help_text="The model solution's Python.")


class ExerciseDetailSerializer(ExerciseSerializer):
    prompt = serializers.CharField(help_text="Markdown: the task and its contract.")
    hints = serializers.CharField(help_text="Markdown; may be empty.")
    sizes = serializers.ListField(child=serializers.IntegerField(), source="current.spec.sizes")
    check_sizes = serializers.SerializerMethodField()
    allowed_imports = serializers.SerializerMethodField()
    limits = serializers.SerializerMethodField()
    starter_code = serializers.CharField(source="current.starter_code")

    def get_check_sizes(self, question) -> list[int]:
        return list(question.current.spec.get("check_sizes") or [])

    def get_allowed_imports(self, question) -> list[str]:
        return list(question.current.spec.get("allowed_imports") or [])

    @extend_schema_field(ExerciseLimitsSerializer)
    def get_limits(self, question):
        return exercise_limits(question.current.spec)


class CodeField(serializers.CharField):
    """Text passed as it came: submissions.services.intake.clean_code judges NULs, surrogates and size,
    with the same messages and codes as the web form."""

    def __init__(self, **kwargs):
        super().__init__(trim_whitespace=False, allow_blank=True, **kwargs)
        self.validators = [
            v
            for v in self.validators
            if not isinstance(v, (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator))
        ]


class CustomInputSerializer(serializers.Serializer):
    """A quick check on your own input ("run my input"): a size and seed for the exercise's own
    input maker, or literal argument values; never both."""

    size = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="At most the exercise's largest check size (its `check_sizes`); blank: that size.",
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=custom_inputs.MAX_SEED,
        help_text="The same size and seed make the same input; blank: one is drawn and reported.",
    )
    args = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        allow_null=True,
        help_text="One JSON value per parameter of the entry point, converted to the types the exercise's inputs "
        'have (an array\'s dtype and dimensions, an int, a float...); NaN and infinities as "nan", "inf", "-inf"; '
        f"at most {custom_inputs.MAX_LITERAL_ELEMENTS:,} values in all.",
    )


class SubmissionCreateSerializer(serializers.Serializer):
    exercise = serializers.SlugField(max_length=120, help_text="The exercise's slug.")
    code = CodeField(help_text="Python source; at most SUBMISSION_MAX_BYTES bytes of UTF-8.")
    purpose = serializers.ChoiceField(
        choices=[
            (Purpose.PRACTICE, "Practice: graded for speed and memory, ranked"),
            (Purpose.QUICK_CHECK, "Quick check: small inputs, correctness only"),
        ],
        default=Purpose.PRACTICE,
    )
    custom_input = CustomInputSerializer(
        required=False,
        allow_null=True,
        help_text="With purpose `check` only: run on this input instead of the check sizes; the result is the "
        "submission's `custom_input_result`.",
    )


class SubmissionFilterSerializer(PageParamsSerializer):
    exercise = serializers.SlugField(required=False, max_length=120)
    purpose = serializers.ChoiceField(choices=[Purpose.PRACTICE, Purpose.QUICK_CHECK], required=False)
    status = serializers.ChoiceField(choices=Status.CHOICES, required=False)
    verdict = serializers.ChoiceField(choices=Verdict.CHOICES, required=False)


class ProgressSerializer(serializers.Serializer):
    """Where the grading is: the row's state, and while it runs the harness's latest phase
    (submissions.progress). Fields may be added; clients must ignore those they do not know."""

    state = serializers.ChoiceField(choices=Status.CHOICES, help_text="queued, running or done.")
    phase = serializers.CharField(
        allow_null=True,
        help_text="queued, starting, loading, checking, timing, profiling or comparing; null once done.",
    )
    label = serializers.CharField(
        allow_null=True, help_text="The phase in words, e.g. 'Timing size 2 of 3, pair 4 of 15'."
    )
    fraction = serializers.FloatField(
        allow_null=True, help_text="0..1 of the grading done, once the harness can estimate it."
    )
    elapsed_s = serializers.FloatField(allow_null=True)
    eta_s = serializers.FloatField(allow_null=True, help_text="Estimated seconds left; null until known.")
    size_index = serializers.IntegerField(allow_null=True)
    sizes = serializers.IntegerField(allow_null=True)
    pair = serializers.IntegerField(allow_null=True)
    pairs = serializers.IntegerField(allow_null=True)
    queue_position = serializers.IntegerField(
        allow_null=True, help_text="While queued: about how many submissions go first (0 = next); null otherwise."
    )
    waiting_for_gpu = serializers.BooleanField(help_text="Queued for a GPU and no GPU worker is online.")
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class SizeResultSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    pairs = serializers.IntegerField(allow_null=True)
    speedup = serializers.FloatField(allow_null=True)
    speedup_ci = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    time_s = serializers.FloatField(allow_null=True)
    reference_time_s = serializers.FloatField(allow_null=True)
    peak_memory_bytes = serializers.IntegerField(allow_null=True)


class SubmissionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    exercise = serializers.CharField(source="exercise.question.slug")
    exercise_version = serializers.IntegerField(source="exercise.number")
    purpose = serializers.CharField()
    status = serializers.ChoiceField(choices=Status.CHOICES)
    is_final = serializers.BooleanField()
    verdict = serializers.CharField(help_text="Empty until graded; else one of " + ", ".join(sorted(Verdict.ALL)) + ".")
    verdict_label = serializers.CharField()
    accepted = serializers.SerializerMethodField()
    speedup = serializers.FloatField(allow_null=True)
    speedup_ci = serializers.SerializerMethodField()
    peak_memory_bytes = serializers.IntegerField(allow_null=True)
    reference_peak_memory_bytes = serializers.IntegerField(allow_null=True)
    hardware = serializers.CharField()
    created_at = serializers.DateTimeField()
    web_url = serializers.SerializerMethodField()

    def get_accepted(self, submission) -> bool:
        return submission.verdict == Verdict.ACCEPTED

    @extend_schema_field(
        serializers.ListField(child=serializers.FloatField(), allow_null=True, min_length=2, max_length=2)
    )
    def get_speedup_ci(self, submission):
        if submission.speedup_ci_low is None or submission.speedup_ci_high is None:
            return None
        return [submission.speedup_ci_low, submission.speedup_ci_high]

    def get_web_url(self, submission) -> str:
        return self.context["request"].build_absolute_uri(submission.get_absolute_url())


class AgainstPreviousSerializer(serializers.Serializer):
    previous = serializers.IntegerField(
        help_text="The learner's previous accepted practice answer graded alike (its id)."
    )
    ratio = serializers.FloatField(help_text="This speedup over the previous one: above 1, this answer is the faster.")
    outcome = serializers.ChoiceField(
        choices=[comparison.FASTER, comparison.SLOWER, comparison.UNCLEAR, comparison.SAME_CODE],
        help_text="same_code when both answers are one program (names, comments and layout aside: the gap is noise); "
        "else faster or slower when the two 95% intervals do not overlap, unclear when they do.",
    )


class AnswerPreviewSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="array, tuple or value.")
    text = serializers.CharField(help_text="The whole preview in one line, e.g. 'float64 array, shape (500,): [...]'.")
    dtype = serializers.CharField(required=False, help_text="Arrays: the dtype's name.")
    shape = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="Arrays.")
    head = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Arrays: the first elements, exactly as written."
    )
    more = serializers.IntegerField(required=False, help_text="Arrays: elements after `head`.")
    items = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="Tuples: a preview of each item."
    )
    type = serializers.CharField(required=False, help_text="Other values: the Python type's name.")


class CustomRunSideSerializer(serializers.Serializer):
    answer = AnswerPreviewSerializer()
    first_call_s = serializers.FloatField(help_text="The first call on the input (it may include compiling).")
    seconds = serializers.FloatField(
        allow_null=True, help_text="A second, warm call; null when the first answers already differed."
    )


class CustomRunSerializer(serializers.Serializer):
    """grader/harness/custom_input.py: both sides' answers on the learner's input and their call times
    (one call each, the grader's transfers included: a rough figure, never a speedup)."""

    size = serializers.IntegerField(allow_null=True, help_text="Null for literal arguments.")
    seed = serializers.IntegerField(allow_null=True, help_text="The seed used, drawn when none was given.")
    arguments = serializers.ListField(
        child=serializers.CharField(), help_text="Each argument as Python that rebuilds it (large arrays described)."
    )
    match = serializers.BooleanField(allow_null=True, help_text="Whether the answers are the same (to tolerance).")
    mismatch = serializers.CharField(allow_blank=True, help_text="Where they differ, when they do.")
    reference = CustomRunSideSerializer(allow_null=True)
    submission = CustomRunSideSerializer(allow_null=True)


class SubmissionDetailSerializer(SubmissionSerializer):
    message = serializers.CharField(help_text="Feedback for the learner (why it failed, hints).")
    code = serializers.CharField()
    custom_input = serializers.JSONField(
        allow_null=True, help_text="The input a quick check on your own input was asked for ({size, seed, args})."
    )
    custom_input_result = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    sizes = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    against_previous = serializers.SerializerMethodField()

    @extend_schema_field(CustomRunSerializer(allow_null=True))
    def get_custom_input_result(self, submission):
        """Null until graded, for every other submission, and when the input was refused."""
        return (submission.report or {}).get("custom_input")

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, submission):
        return self.context["progress"]

    @extend_schema_field(SizeResultSerializer(many=True))
    def get_sizes(self, submission):
        sizes = (submission.report or {}).get("sizes") or []
        return [{field: entry.get(field) for field in SIZE_FIELDS} for entry in sizes]

    @extend_schema_field(AgainstPreviousSerializer(allow_null=True))
    def get_against_previous(self, submission):
        """As the submission page shows it (submissions/comparison.py); null before the verdict or with nothing to compare."""
        found = comparison.against_previous(submission) if submission.is_final else None
        if found is None:
            return None
        return {"previous": found.previous.pk, "ratio": found.ratio, "outcome": found.outcome}

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": True})
    def get_report(self, submission):
        """The grader's report, less each size's timed calls (they are at /timings/)."""
        if submission.report is None:
            return None
        report = dict(submission.report)
        report["sizes"] = [{k: v for k, v in entry.items() if k != "calls"} for entry in report.get("sizes") or []]
        return report


class BoardFilterSerializer(serializers.Serializer):
    page = serializers.IntegerField(required=False, min_value=1, max_value=1_000_000)


class ExerciseBoardFilterSerializer(BoardFilterSerializer):
    hardware = serializers.CharField(
        required=False, max_length=80, help_text="cpu (the default when present) or a GPU model."
    )


class ScoreRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField(help_text="The opted-in display name, else Anonymous.")
    points = serializers.IntegerField()
    solved = serializers.IntegerField()
    is_you = serializers.BooleanField()


class EntryRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="The shared rank: entries whose 95% intervals overlap cannot be told apart and share the rank of the "
        "first entry of their group (going down the board, an entry joins the group above when its interval overlaps "
        "that of the group's first entry)."
    )
    tied = serializers.BooleanField(help_text="Whether another entry shares this rank (shown as =N).")
    position = serializers.IntegerField(
        help_text="1-based place in the board's order: speedup, then memory, then time."
    )
    name = serializers.CharField()
    speedup = serializers.FloatField(
        help_text="The counted grading's speedup: the person's best program, by its middle grading when graded more than once."
    )
    speedup_ci = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="The counted grading's 95% interval [low, high]; null when it has none.",
    )
    gradings = serializers.IntegerField(
        help_text="How many gradings the counted program has (their lower median counts)."
    )
    peak_memory_bytes = serializers.IntegerField(allow_null=True)
    exercise_version = serializers.IntegerField()
    achieved_at = serializers.DateTimeField()
    is_you = serializers.BooleanField()


class BoardPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()


class ScoreBoardSerializer(BoardPageSerializer):
    you = ScoreRowSerializer(
        allow_null=True, help_text="Your row and place, wherever it is; null if you are not on the board."
    )
    results = ScoreRowSerializer(many=True)


class ExerciseBoardSerializer(BoardPageSerializer):
    exercise = serializers.SlugField()
    hardware = serializers.CharField(allow_null=True)
    hardware_available = serializers.ListField(child=serializers.CharField())
    you = EntryRowSerializer(allow_null=True)
    results = EntryRowSerializer(many=True)


class TokenInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    scope = serializers.ChoiceField(choices=Scope.choices)
    expires_at = serializers.DateTimeField()


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    public_name = serializers.CharField()
    token = TokenInfoSerializer(allow_null=True, help_text="The token this request used; null for a browser session.")
