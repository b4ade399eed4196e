from django import forms

from .numeric import answer_help
from .services.answering import MAX_ANSWER_CHARS

CONFIDENCE_CHOICES = [
    (1, "1 · guessing"),
    (2, "2 · unsure"),
    (3, "3 · fairly sure"),
    (4, "4 · confident"),
    (5, "5 · certain"),
]


def confidence_field(label):
    return forms.TypedChoiceField(
        label=label,
        choices=CONFIDENCE_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": "Pick how confident you are, from 1 to 5."},
    )


class ConceptAnswerForm(forms.Form):
    answer = forms.CharField(
        label="Your answer",
        widget=forms.Textarea(attrs={"rows": 10}),
        max_length=MAX_ANSWER_CHARS,
        required=False,
        help_text="Write it as you would say it in the interview. Your draft is saved as you type.",
    )
    confidence = confidence_field("How confident are you in your answer?")


class RubricForm(forms.Form):
    """Tick the rubric points the answer covered (confidence was given before the reveal)."""

    def __init__(self, *args, rubric, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["covered"] = forms.TypedMultipleChoiceField(
            label="Points your answer covered",
            choices=list(enumerate(rubric)),
            coerce=int,
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )


class NumericAnswerForm(forms.Form):
    value = forms.CharField(
        label="Your answer",
        max_length=100,
        help_text="A number, with a unit if you like.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "decimal", "spellcheck": "false"}),
    )
    confidence = confidence_field("How confident are you?")

    def __init__(self, *args, unit="", **kwargs):
        super().__init__(*args, **kwargs)
        if unit:
            self.fields["value"].help_text = answer_help(unit)
