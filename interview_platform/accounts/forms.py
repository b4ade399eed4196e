from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from .models import Profile
from .verification import normalise, verified_accounts


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=True, help_text="Used for password resets and assessment invitations.")

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = normalise(self.cleaned_data["email"])
        # Only an account that proved it reads the address holds it: registering someone
        # else's e-mail first must not lock its owner out (accounts.verification).
        if verified_accounts(email).exists():
            raise forms.ValidationError("An account with this e-mail already exists. Sign in or reset your password.")
        return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "show_on_leaderboards")
        labels = {"show_on_leaderboards": "Show my display name on public leaderboards"}
