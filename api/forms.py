from django import forms

from .models import Scope
from .tokens import LIFETIME_CHOICES_DAYS


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="What it is for, e.g. “laptop” or “CI”.")
    scope = forms.ChoiceField(choices=Scope.choices, initial=Scope.SUBMIT, widget=forms.RadioSelect)
    lifetime_days = forms.TypedChoiceField(
        label="Expires after",
        choices=[(days, f"{days} days") for days in LIFETIME_CHOICES_DAYS],
        coerce=int,
        initial=90,
    )
