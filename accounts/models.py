import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


def is_control_character(char):
    """Unicode category C* (control, format, private use, surrogate, unassigned): escape
    sequences, carriage returns, bidi overrides, zero-width marks."""
    return unicodedata.category(char).startswith("C")


def refuse_control_characters(value):
    """A display name is printed on other people's pages and terminals (`hotpath
    leaderboard`), where a control character could rewrite what they see."""
    found = sorted({f"U+{ord(char):04X}" for char in value if is_control_character(char)})
    if found:
        raise ValidationError(
            f"A display name cannot hold control characters ({', '.join(found)}): "
            "use letters, digits, spaces and punctuation.",
            code="control_characters",
        )


class Profile(models.Model):
    """What a person chooses to show publicly. Leaderboards show a display name
    only when the person opted in; everyone else appears as 'Anonymous'."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True, validators=[refuse_control_characters])
    show_on_leaderboards = models.BooleanField(default=False)
    # The address its owner proved they read (a link mailed to it was opened); the account is
    # verified while this is its current e-mail (accounts.verification).
    verified_email = models.EmailField(blank=True, db_index=True)

    def __str__(self):
        return self.public_name

    @property
    def public_name(self):
        if self.show_on_leaderboards and self.display_name:
            return self.display_name
        return "Anonymous"


def profile_for(user):
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile
