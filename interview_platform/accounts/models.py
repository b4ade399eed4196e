from django.conf import settings
from django.db import models


class Profile(models.Model):
    """What a person chooses to show publicly. Leaderboards show a display name
    only when the person opted in; everyone else appears as 'Anonymous'."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True)
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
