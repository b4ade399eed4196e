from datetime import timedelta

from django import forms
from django.core.validators import validate_email
from django.utils import timezone

from questions.models import Question
from questions.text import unix_newlines

from .models import Assessment, Role
from .services import MAX_EXTRA_MINUTES

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
MAX_CANDIDATES_PER_INVITE = 50
CODE_ATTRS = {"rows": 16, "spellcheck": "false", "class": "code-input"}


class OrganisationForm(forms.Form):
    name = forms.CharField(max_length=120, label="Organisation name")


class MemberInviteForm(forms.Form):
    email = forms.EmailField(label="E-mail address")
    role = forms.ChoiceField(
        choices=Role.choices,
        initial=Role.REVIEWER,
        help_text="Owners manage members and assessments; reviewers read reports and score answers.",
    )


class OrganisationTokenForm(forms.Form):
    name = forms.CharField(max_length=60, label="Token name", help_text="What it is for, e.g. 'ATS sync'.")
    role = forms.ChoiceField(
        choices=Role.choices,
        initial=Role.REVIEWER,
        help_text="Reviewer tokens read assessments and reports; owner tokens may also invite and revoke candidates.",
    )


class WebhookEndpointForm(forms.Form):
    url = forms.URLField(
        max_length=500,
        label="Endpoint URL",
        assume_scheme="https",
        help_text="An https:// URL on a public address. Private, loopback and link-local addresses are refused, "
        "so webhooks cannot be pointed at machines inside Hotpath's own network.",
    )


class AssessmentForm(forms.ModelForm):
    #: What a new assessment's form starts from: open from now, for two weeks, an hour a
    #: candidate. A newcomer had to fill both dates in before the form would save.
    NEW_TIME_LIMIT_MINUTES = 60
    NEW_WINDOW = timedelta(days=14)

    class Meta:
        model = Assessment
        fields = ("title", "instructions", "time_limit_minutes", "opens_at", "closes_at", *Assessment.CANDIDATE_VIEW)
        labels = {"time_limit_minutes": "Time limit (minutes)"}
        widgets = {"opens_at": DATETIME_WIDGET, "closes_at": DATETIME_WIDGET}

    def details(self):
        return [self[name] for name in self.fields if name not in Assessment.CANDIDATE_VIEW]

    def candidate_view(self):
        """The owner's choice of what candidates see during a sitting (a fieldset of its own)."""
        return [self[name] for name in Assessment.CANDIDATE_VIEW]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_limit_minutes"].min_value = 1
        self.fields["time_limit_minutes"].max_value = 24 * 60
        self.fields["time_limit_minutes"].widget.attrs.update(min=1, max=24 * 60)
        if self.instance.pk is None and not self.is_bound:
            opens_at = timezone.now().replace(second=0, microsecond=0)
            self.initial.setdefault("time_limit_minutes", self.NEW_TIME_LIMIT_MINUTES)
            self.initial.setdefault("opens_at", opens_at)
            self.initial.setdefault("closes_at", opens_at + self.NEW_WINDOW)
        if self.instance.is_published:
            # Every candidate gets the same time: it is frozen once candidates can be invited.
            self.fields["time_limit_minutes"].disabled = True
            self.fields[
                "time_limit_minutes"
            ].help_text = "Fixed once published. Grant extra time per candidate instead."

    def clean(self):
        cleaned = super().clean()
        opens_at, closes_at = cleaned.get("opens_at"), cleaned.get("closes_at")
        if opens_at and closes_at and closes_at <= opens_at:
            self.add_error("closes_at", "The window must close after it opens.")
        return cleaned


class AddQuestionForm(forms.Form):
    question = forms.ModelChoiceField(
        # Assessment-only questions first: their answers are on no public page.
        queryset=Question.objects.live().order_by("visibility", "kind", "topic", "title"),
        label="Question from the bank",
        help_text="Public questions can be practised by anyone, candidates included, and show their answers; "
        "assessment-only ones cannot.",
        empty_label="Choose a question…",
    )
    target_speedup = forms.FloatField(
        required=False,
        min_value=1.0,
        max_value=10_000,
        label="Target speedup (coding questions)",
        help_text="Full marks at or above this many times faster than the reference; a correct answer earns half "
        "marks at the reference's speed and more with each doubling. Empty: full marks for any correct answer. "
        "Candidates see the rule before they start.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["question"].label_from_instance = lambda q: (
            f"[{q.get_kind_display()}] {q.title} ({q.get_difficulty_display()})"
            + ("" if q.is_public else " · assessment-only")
        )


class CandidateInviteForm(forms.Form):
    emails = forms.CharField(
        label="Candidate e-mail addresses",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One per line or separated by commas. Each gets a single-use link that expires when the window closes.",
    )

    def clean_emails(self):
        raw = self.cleaned_data["emails"].replace(",", "\n").replace(";", "\n")
        emails = list(dict.fromkeys(line.strip().lower() for line in raw.splitlines() if line.strip()))
        if not emails:
            raise forms.ValidationError("Enter at least one e-mail address.")
        if len(emails) > MAX_CANDIDATES_PER_INVITE:
            raise forms.ValidationError(f"Invite at most {MAX_CANDIDATES_PER_INVITE} candidates at a time.")
        invalid = []
        for email in emails:
            try:
                validate_email(email)
            except forms.ValidationError:
                invalid.append(email)
        if invalid:
            raise forms.ValidationError(f"Not valid e-mail addresses: {', '.join(invalid)}")
        return emails


class ExtraTimeForm(forms.Form):
    minutes = forms.IntegerField(label="Extra minutes", min_value=1, max_value=MAX_EXTRA_MINUTES)


class ReviewForm(forms.Form):
    """The reviewer ticks the rubric points a concept answer covers."""

    points = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Rubric points covered"
    )

    def __init__(self, rubric, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["points"].choices = list(enumerate(rubric))


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Your code",
        strip=False,
        widget=forms.Textarea(attrs={**CODE_ATTRS, "rows": 22}),
    )

    def clean_code(self):
        return unix_newlines(self.cleaned_data["code"])
