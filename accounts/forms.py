import unicodedata

from django import forms
from django.contrib.auth import forms as auth_forms
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


def _same_address(first, second):
    """Django's reset comparison: NFKC and casefold, so no look-alike address matches."""
    return unicodedata.normalize("NFKC", first).casefold() == unicodedata.normalize("NFKC", second).casefold()


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, reaching accounts without a usable password as well: a candidate's account,
    made by an invitation link, has none, and while it holds the verified address sign-up
    refuses that address, so a reset is how its owner claims it."""

    def get_users(self, email):
        accounts = User._default_manager.filter(email__iexact=email, is_active=True)
        return (account for account in accounts if _same_address(email, account.email))


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "show_on_leaderboards")
        labels = {"show_on_leaderboards": "Show my display name on public leaderboards"}
