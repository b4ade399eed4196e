"""The authoring pages' forms: a question's text (every kind: a concept or numeric question
whole, a coding exercise's page) and an edit of a coding exercise's code."""

import re

import yaml
from django import forms
from django.utils.text import slugify

from questions import loader
from questions.models import Difficulty, Kind
from questions.text import unix_newlines

from .writing import EXERCISE_TEMPLATE_DIR

CODE_ATTRS = {"rows": 16, "spellcheck": "false", "class": "code-input"}


#: What the bank's folder names and addresses look like: lowercase words joined by hyphens.
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def slug_field(example):
    """A new question's slug, checked by clean_new_slug (which can say what would do
    instead of "Enter a valid slug")."""
    return forms.CharField(
        label="Slug",
        max_length=120,
        required=False,
        help_text=f"Its address, e.g. {example}: lowercase words joined by hyphens. Left empty, it is made from the title.",
    )


def clean_new_slug(typed, title):
    slug = typed.strip()
    if not slug:
        slug = slugify(title)[:120].strip("-")
        if not slug:
            raise forms.ValidationError(
                "Give the question a slug: its title has no letters or digits to make one from."
            )
    if not SLUG.match(slug):
        suggestion = slugify(slug.replace("_", "-"))
        raise forms.ValidationError(
            "A slug is lowercase words joined by hyphens" + (f", for example “{suggestion}”." if suggestion else ".")
        )
    return slug


class ExerciseEditForm(forms.Form):
    """An edit of a coding exercise: its spec (front-matter keys, YAML) and its code files."""

    spec = forms.CharField(
        label="Exercise spec (YAML)",
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "class": "code-input"}),
        help_text="The coding keys of question.md's front matter: target, entry_point, sizes, tolerance, limits, allowed_imports…",
    )
    reference = forms.CharField(label="reference.py", strip=False, widget=forms.Textarea(attrs=CODE_ATTRS))
    starter = forms.CharField(label="starter.py", strip=False, widget=forms.Textarea(attrs=CODE_ATTRS))
    inputs = forms.CharField(label="inputs.py", strip=False, widget=forms.Textarea(attrs=CODE_ATTRS))
    solution = forms.CharField(label="solution.py", strip=False, widget=forms.Textarea(attrs=CODE_ATTRS))
    check = forms.CharField(
        label="check.py (optional)", strip=False, required=False, widget=forms.Textarea(attrs=CODE_ATTRS)
    )

    FILES = {
        "reference": "reference.py",
        "starter": "starter.py",
        "inputs": "inputs.py",
        "solution": "solution.py",
        "check": "check.py",
    }

    TEMPLATE_DIR = EXERCISE_TEMPLATE_DIR

    @classmethod
    def initial_for(cls, version):
        if version is None:
            return cls.template_initial()
        initial = {"spec": yaml.safe_dump(version.spec, sort_keys=False, default_flow_style=None)}
        for field_name, file_name in cls.FILES.items():
            initial[field_name] = getattr(version, loader.EXERCISE_FILES[file_name])
        return initial

    @classmethod
    def template_initial(cls):
        initial = {"spec": (cls.TEMPLATE_DIR / "spec.yaml").read_text()}
        for field_name, file_name in cls.FILES.items():
            path = cls.TEMPLATE_DIR / file_name
            initial[field_name] = path.read_text() if path.exists() else ""
        return initial

    def clean_spec(self):
        try:
            meta = yaml.safe_load(self.cleaned_data["spec"])
        except yaml.YAMLError as error:
            raise forms.ValidationError(f"Not valid YAML: {' '.join(str(error).split())}") from None
        if not isinstance(meta, dict):
            raise forms.ValidationError("The spec must be a mapping of keys, as in question.md's front matter.")
        unknown = sorted(set(meta) - set(loader.KIND_KEYS[Kind.CODING]))
        if unknown:
            raise forms.ValidationError(f"Unknown key(s): {', '.join(unknown)}.")
        reasons = []
        spec = loader.coding_spec(meta, reasons)
        if reasons:
            raise forms.ValidationError(reasons)
        return spec

    def files_dict(self):
        files = {}
        for field_name, file_name in self.FILES.items():
            text = unix_newlines(self.cleaned_data[field_name])
            if text or file_name not in loader.OPTIONAL_EXERCISE_FILES:
                files[file_name] = text
        return files


class QuestionForm(forms.Form):
    """A question's text: every section the bank requires of its kind, the bank's topics
    only, a concept question's rubric, a numeric question's answer, unit and tolerance; a
    coding exercise's page (its code is ExerciseEditForm's). The checks the bank and the
    learners' answer checker make run in authoring.writing."""

    title = forms.CharField(max_length=200)
    slug = slug_field("l2-cache-line-reuse")
    topic = forms.ChoiceField(label="Topic")
    difficulty = forms.ChoiceField(choices=Difficulty.choices)
    tags = forms.CharField(
        required=False, max_length=400, help_text="Optional, separated by commas: e.g. cache, memory."
    )
    prompt = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), help_text="Markdown: what the learner is asked.")
    answer_value = forms.FloatField(
        label="Expected answer",
        help_text="A number, in the unit below (e.g. 64 for 64 MiB).",
        widget=forms.NumberInput(attrs={"step": "any"}),
    )
    answer_unit = forms.CharField(
        label="Unit",
        max_length=40,
        help_text="As learners type it: MiB, GB/s, ms, %, or a count word such as comparisons. B is a byte and b a bit.",
    )
    tolerance = forms.FloatField(
        min_value=0,
        max_value=1,
        help_text="Relative: 0.05 accepts answers within 5% of the expected one.",
        widget=forms.NumberInput(attrs={"step": "any"}),
    )
    rubric = forms.CharField(
        label="Rubric points",
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="The key points a good answer covers, one a line: {low} to {high}. Learners tick those they covered.".format(
            low=loader.RUBRIC_SIZE[0], high=loader.RUBRIC_SIZE[1]
        ),
    )
    sample_answer = forms.CharField(
        label="Sample answer",
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Markdown: a strong answer, shown to the learner after they answer.",
    )
    explanation = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Markdown: the worked explanation.",
    )
    hints = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Markdown, optional: hints a learner may open.",
    )

    KIND_FIELDS = {Kind.CONCEPT: ("rubric",), Kind.NUMERIC: ("answer_value", "answer_unit", "tolerance")}

    #: Help that differs for a coding exercise, whose learners write code and earn its editorial.
    CODING_HELP = {
        "prompt": "Markdown: what the learner is asked to write, with the function's name and arguments.",
        "sample_answer": "Markdown: how a strong answer does it and why; learners read it, with the model "
        "solution, once their own answer is accepted.",
        "explanation": "Markdown, optional: kept in the bank file for authors; learners do not see it.",
    }

    def __init__(self, *args, kind, question=None, **kwargs):
        if question is not None:
            kwargs.setdefault("initial", self.initial_for(question))
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["topic"].choices = [("", "Choose a topic…"), *((topic, topic) for topic in loader.TOPIC_FOLDERS)]
        for other, names in self.KIND_FIELDS.items():
            if other != kind:
                for name in names:
                    del self.fields[name]
        if question is not None:
            del self.fields["slug"]  # addresses and attempts point at it
        elif kind == Kind.CODING:
            self.fields["slug"] = slug_field("vectorise-a-loop")
        for name in loader.SECTIONS:
            self.fields[name].required = name in loader.REQUIRED_SECTIONS[kind]
        if kind == Kind.CODING:
            for name, help_text in self.CODING_HELP.items():
                self.fields[name].help_text = help_text

    @staticmethod
    def initial_for(question):
        initial = {
            name: getattr(question, name)
            for name in (
                "title",
                "topic",
                "difficulty",
                "prompt",
                "sample_answer",
                "explanation",
                "hints",
                "answer_value",
                "answer_unit",
                "tolerance",
            )
        }
        initial["tags"] = ", ".join(question.tags)
        initial["rubric"] = "\n".join(question.rubric)
        return initial

    def clean_slug(self):
        return clean_new_slug(self.cleaned_data["slug"], self.cleaned_data.get("title", ""))

    def clean_tags(self):
        return [tag.strip() for tag in self.cleaned_data["tags"].split(",") if tag.strip()]

    def clean_rubric(self):
        return [line.strip() for line in unix_newlines(self.cleaned_data["rubric"]).split("\n") if line.strip()]

    def clean_tolerance(self):
        tolerance = self.cleaned_data["tolerance"]
        if tolerance == 0:
            raise forms.ValidationError("A tolerance must be above 0: 0.01 accepts answers within 1%.")
        return tolerance

    def values(self):
        """What authoring.writing.save_question takes: the written fields, Markdown with Unix newlines."""
        values = {name: value for name, value in self.cleaned_data.items() if name != "slug"}
        for name in loader.SECTIONS:
            values[name] = unix_newlines(values[name]).strip()
        return values
