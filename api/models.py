"""Personal access tokens: how a script or the `hotpath` client acts for a person.

Only a SHA-256 hash of each token is stored (a token is 256 random bits, so a slow
password hash would add nothing); the token itself is shown once, when it is made."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Scope(models.TextChoices):
    READ = "read", "Read"
    SUBMIT = "submit", "Read and submit"


class PersonalAccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for, e.g. 'laptop'.")
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.READ)
    #: The first characters of the token, so its owner can tell tokens apart; not secret.
    prefix = models.CharField(max_length=16)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…, {self.user})"

    @property
    def is_revoked(self):
        return self.revoked_at is not None

    @property
    def is_expired(self):
        return self.expires_at <= timezone.now()

    @property
    def is_active(self):
        return not self.is_revoked and not self.is_expired

    @property
    def can_submit(self):
        return self.scope == Scope.SUBMIT
