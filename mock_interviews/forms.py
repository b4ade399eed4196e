from django import forms

from . import drawing
from .models import Length


class StartForm(forms.Form):
    minutes = forms.TypedChoiceField(
        label="Length", choices=Length.choices, coerce=int, initial=Length.SHORT, widget=forms.RadioSelect
    )
    topics = forms.MultipleChoiceField(
        label="Topics",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: questions from every topic.",
    )
    difficulty = forms.ChoiceField(label="Level", choices=drawing.DIFFICULTY_CHOICES, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["topics"].choices = [(topic, topic) for topic in drawing.bank_topics()]
