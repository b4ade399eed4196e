from django.conf import settings
from django.db import models


class Profile(models.Model):
    """What a person chooses to show publicly. Leaderboards show a display name
    only when the person opted in; everyone else appears as 'Anonymous'."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True)
    show_on_leaderboards = models.BooleanField(default=False)

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
