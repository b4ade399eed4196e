import re

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html

from . import services

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


class ProviderForm(forms.Form):
    """The owner's settings for the organisation's provider. The client secret is never
    shown again: left blank, the stored one stays."""

    issuer = forms.URLField(
        max_length=400,
        label="Issuer URL",
        assume_scheme="https",
        help_text="As the provider's discovery document names it, e.g. "
        "https://login.example.com/realms/acme (https only).",
    )
    client_id = forms.CharField(max_length=255, label="Client id")
    client_secret = forms.CharField(
        required=False,
        label="Client secret",
        strip=True,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="Stored encrypted and never shown again; leave blank to keep the saved one.",
    )
    domains = forms.CharField(
        label="E-mail domains",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="The domains whose addresses sign in through this provider, e.g. example.com (comma or one a line).",
    )
    enabled = forms.BooleanField(required=False, initial=True, label="Members can sign in through this provider")
    required = forms.BooleanField(
        required=False,
        label="Members must use it",
        help_text="Members whose address is in these domains can no longer sign in with a password.",
    )
    join_as_member = forms.BooleanField(
        required=False,
        label="Join on first sign-in",
        help_text="Someone who signs in through the provider for the first time joins as a reviewer.",
    )

    def clean_issuer(self):
        issuer = self.cleaned_data["issuer"].strip()
        try:
            services.check_provider_url(issuer)
        except services.SsoError as error:
            raise ValidationError(str(error)) from None
        return issuer

    def clean_domains(self):
        names = [name.strip().lower().lstrip("@") for name in re.split(r"[\s,]+", self.cleaned_data["domains"])]
        names = sorted({name for name in names if name})
        wrong = [name for name in names if not _DOMAIN.match(name)]
        if wrong:
            raise ValidationError(f"Not a domain name: {', '.join(wrong)} (write e.g. example.com).")
        if not names:
            raise ValidationError("Name at least one e-mail domain.")
        return names


class FindProviderForm(forms.Form):
    email = forms.EmailField(label="Your work e-mail", widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class SsoAwareAuthenticationForm(AuthenticationForm):
    """The password sign-in form, refusing members whose organisation requires its single sign-on."""

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        provider = services.provider_requiring_sso(user)
        if provider is not None:
            url = reverse("sso:start", args=[provider.organisation.slug])
            raise ValidationError(
                format_html(
                    '{} requires its single sign-on for your address: <a href="{}">sign in with {} SSO</a>.',
                    provider.organisation.name,
                    url,
                    provider.organisation.name,
                ),
                code="sso_required",
            )
