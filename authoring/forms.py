"""The authoring pages' forms: a new coding question's page, and an edit of its exercise."""
import re
from pathlib import Path

import yaml
from django import forms
from django.utils.text import slugify

from questions import loader
from questions.models import Kind, Question, Visibility
from questions.text import unix_newlines

CODE_ATTRS = {"rows": 16, "spellcheck": "false", "class": "code-input"}


class NewExerciseForm(forms.ModelForm):
    """A new coding exercise's page: what candidates read, with every section the bank
    requires of an exercise (so it can be exported). Its code comes next (from a template)."""

    class Meta:
        model = Question
        fields = ["title", "slug", "topic", "difficulty", "prompt", "sample_answer", "hints"]
        help_texts = {
            "prompt": "Markdown: what the candidate is asked to write.",
            "sample_answer": "Markdown: how a strong answer does it, shown to candidates after they answer.",
            "hints": "Markdown, optional: hints a candidate may open.",
        }

    #: What the bank's folder names and addresses look like: lowercase words joined by hyphens.
    SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The bank's one list: a topic typed elsewhere (the admin) would make the entry unexportable.
        self.fields["topic"] = forms.ChoiceField(choices=[(topic, topic) for topic in loader.TOPIC_FOLDERS], label="Topic")
        for section in loader.REQUIRED_SECTIONS[Kind.CODING]:
            self.fields[section].required = True
        # Checked by clean_slug, which can say what would do instead of "Enter a valid slug".
        self.fields["slug"] = forms.CharField(
            label="Slug", max_length=120, required=False,
            help_text="Its address, e.g. vectorise-a-loop: lowercase words joined by hyphens. Left empty, it is made from the title.",
        )

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip()
        if not slug:
            slug = slugify(self.cleaned_data.get("title", ""))[:120].strip("-")
            if not slug:
                raise forms.ValidationError("Give the exercise a slug: its title has no letters or digits to make one from.")
        if not self.SLUG.match(slug):
            suggestion = slugify(slug.replace("_", "-"))
            raise forms.ValidationError(
                "A slug is lowercase words joined by hyphens"
                + (f", for example “{suggestion}”." if suggestion else ".")
            )
        return slug

    def save(self, commit=True):
        question = super().save(commit=False)
        question.kind = Kind.CODING
        # Private until an author makes it public (admin): a half-made exercise is on no public page.
        question.visibility = Visibility.ASSESSMENT
        if commit:
            question.save()
        return question


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

    FILES = {"reference": "reference.py", "starter": "starter.py", "inputs": "inputs.py", "solution": "solution.py", "check": "check.py"}

    #: A small working exercise (spec.yaml and its files) that a first version starts from.
    TEMPLATE_DIR = Path(__file__).resolve().parent / "exercise_template"

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
