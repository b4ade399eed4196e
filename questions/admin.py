from django import forms
from django.contrib import admin
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from .models import BankProblem, ExerciseVersion, Question
from .rendering import render_markdown

KATEX = ("vendor/katex/katex.min.js", "vendor/katex/contrib/auto-render.min.js", "questions/math.js")


class RetiredFilter(admin.SimpleListFilter):
    title = "retired"
    parameter_name = "retired"

    def lookups(self, request, model_admin):
        return [("no", "Live"), ("yes", "Retired")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(retired_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(retired_at__isnull=True)
        return queryset


class ExerciseVersionInline(admin.TabularInline):
    """Versions are made by load_bank from exercise folders; here they are only shown."""

    model = ExerciseVersion
    extra = 0
    can_delete = False
    show_change_link = False
    fields = ("number", "target_display", "entry_point_display", "content_hash", "validated", "created_at")
    readonly_fields = fields

    def has_view_permission(self, request, obj=None):
        # Whoever may see a question may see its versions; nobody edits them here.
        return request.user.has_perm("questions.view_question") or request.user.has_perm("questions.change_question")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="target")
    def target_display(self, version):
        return version.target

    @admin.display(description="entry point")
    def entry_point_display(self, version):
        return version.spec.get("entry_point", "")

    @admin.display(description="validated", boolean=True)
    def validated(self, version):
        return None if version.validation_report is None else True


def _rendered(field_name, description):
    @admin.display(description=description)
    def show(self, question):
        text = getattr(question, field_name)
        if not text:
            return "–"
        return format_html('<div class="markdown">{}</div>', mark_safe(render_markdown(text)))  # noqa: S308 - sanitised

    return show


class ListField(forms.CharField):
    """A JSON list of strings edited as plain text: items separated by `separator`."""

    def __init__(self, *, separator, **kwargs):
        self.separator = separator
        super().__init__(required=False, **kwargs)

    def prepare_value(self, value):
        return self.separator.join(value) if isinstance(value, list) else value

    def to_python(self, value):
        return [item.strip() for item in (value or "").split(self.separator.strip() or "\n") if item.strip()]


class QuestionAdminForm(forms.ModelForm):
    tags = ListField(separator=", ", help_text="Separated by commas, e.g. numpy, vectorisation.")
    rubric = ListField(
        separator="\n",
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One key point per line (concept questions).",
    )

    class Meta:
        model = Question
        fields = "__all__"


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    form = QuestionAdminForm
    list_display = ("title", "slug", "topic", "kind", "difficulty", "is_live", "updated_at")
    list_filter = ("topic", "kind", "difficulty", "visibility", RetiredFilter)
    search_fields = ("title", "slug", "prompt", "tags")
    readonly_fields = (
        "rendered_prompt",
        "rendered_sample_answer",
        "rendered_explanation",
        "source_path",
        "content_hash",
        "created_at",
        "updated_at",
    )
    fieldsets = (
        (None, {"fields": ("slug", "title", "topic", "tags", "difficulty", "kind", "visibility", "retired_at")}),
        ("Text (Markdown)", {"fields": ("prompt", "sample_answer", "explanation", "hints")}),
        ("Concept", {"fields": ("rubric",)}),
        ("Numeric", {"fields": ("answer_value", "answer_unit", "tolerance")}),
        ("Rendered", {"fields": ("rendered_prompt", "rendered_sample_answer", "rendered_explanation")}),
        (
            "Source",
            {"classes": ("collapse",), "fields": ("extra", "source_path", "content_hash", "created_at", "updated_at")},
        ),
    )
    inlines = [ExerciseVersionInline]
    change_form_template = "admin/questions/question/change_form.html"

    rendered_prompt = _rendered("prompt", "prompt as shown")
    rendered_sample_answer = _rendered("sample_answer", "sample answer as shown")
    rendered_explanation = _rendered("explanation", "explanation as shown")

    class Media:
        css = {"all": ("vendor/katex/katex.min.css", "css/pygments.css", "questions/questions.css")}
        js = (*KATEX, "questions/admin-preview.js")

    @admin.display(description="live", boolean=True)
    def is_live(self, question):
        return not question.is_retired


@admin.register(BankProblem)
class BankProblemAdmin(admin.ModelAdmin):
    """Why the last load_bank left bank entries out, read-only: every load replaces the rows, and
    the authoring home lists them with the question each entry held."""

    list_display = ("path", "reason", "noticed_at")
    search_fields = ("path", "reason")
    readonly_fields = ("path", "reason", "noticed_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
