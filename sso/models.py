"""An organisation's OpenID Connect identity provider, the e-mail domains it
covers, and the provider identities linked to accounts (sso/services.py uses them)."""

from django.conf import settings
from django.db import models

from teams.models import Organisation


class IdentityProvider(models.Model):
    """One organisation's provider. `client_secret_sealed` holds the secret encrypted
    (sso/sealing.py); it is never shown again once saved."""

    organisation = models.OneToOneField(Organisation, on_delete=models.CASCADE, related_name="identity_provider")
    issuer = models.URLField(
        max_length=400,
        help_text="The provider's issuer URL, exactly as its discovery document "
        "(ISSUER/.well-known/openid-configuration) names it. https only.",
    )
    client_id = models.CharField(max_length=255)
    client_secret_sealed = models.TextField()
    enabled = models.BooleanField(default=True, help_text="Members can sign in through this provider.")
    required = models.BooleanField(
        default=False,
        help_text="Members whose e-mail is in a covered domain must sign in through the provider: "
        "their password sign-in is refused.",
    )
    join_as_member = models.BooleanField(
        default=False,
        help_text="Someone who signs in through the provider for the first time joins the organisation as a reviewer.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.organisation}: {self.issuer}"

    @property
    def domain_names(self):
        return sorted(domain.name for domain in self.domains.all())


class ClaimedDomain(models.Model):
    """An e-mail domain (lower case, e.g. "example.com") whose addresses sign in through
    `provider`. A domain belongs to one organisation at most."""

    provider = models.ForeignKey(IdentityProvider, on_delete=models.CASCADE, related_name="domains")
    name = models.CharField(max_length=253, unique=True)

    def __str__(self):
        return self.name


class ProviderIdentity(models.Model):
    """The account a provider's subject (its `sub` claim, stable for the person) signs in to."""

    provider = models.ForeignKey(IdentityProvider, on_delete=models.CASCADE, related_name="identities")
    subject = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider_identities")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["provider", "subject"], name="sso_identity_unique_subject")]

    def __str__(self):
        return f"{self.provider.organisation}: {self.subject} -> {self.user}"
