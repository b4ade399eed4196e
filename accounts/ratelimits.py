"""Rate limits on the account pages (sign-in, sign-up, password reset, verification
mail), counted in the shared cache by django-ratelimit like the submission limit.

A limit per username or per address counts the value as Django matches it to an
account, not as typed: otherwise " carol", a tab, full-width letters or (for an
address) another case would each be a fresh allowance for the same account."""

import unicodedata

from django.conf import settings
from django_ratelimit.core import is_ratelimited


def canonical_login(value, *, ignore_case):
    """`value` as Django matches it to an account: stripped (form fields strip), NFKC
    (AbstractBaseUser.normalize_username; the reset compares addresses NFKC too), and
    casefolded when the lookup ignores case (BaseUserManager.normalize_email lowers
    only the domain, which casefolding covers)."""
    value = unicodedata.normalize("NFKC", (value or "").strip())
    return value.casefold() if ignore_case else value


def _username(group, request):
    # ModelBackend finds the account by an exact match on the username, case included.
    return canonical_login(request.POST.get("username"), ignore_case=False)


def _email(group, request):
    # PasswordResetForm finds accounts by `email__iexact`, then compares NFKC-casefolded.
    return canonical_login(request.POST.get("email"), ignore_case=True)


#: group -> (setting holding the rate, what each attempt is counted by)
LIMITS = {
    "accounts.login": ("LOGIN_RATE", ("ip", _username)),
    "accounts.signup": ("SIGNUP_RATE", ("ip",)),
    "accounts.password_reset": ("PASSWORD_RESET_RATE", ("ip", _email)),
    "accounts.verification_mail": ("VERIFICATION_MAIL_RATE", ("user",)),
}


def over_limit(request, group):
    """Count this request against each of the group's keys; True once any is past its rate."""
    setting, keys = LIMITS[group]
    rate = getattr(settings, setting)
    limited = [is_ratelimited(request, group=group, key=key, rate=rate, increment=True) for key in keys]
    return any(limited)


def forwarded_client_ip(request):
    """The client's address behind the TLS proxy (settings.TRUST_X_FORWARDED_FOR): the
    last X-Forwarded-For entry, the one that proxy appended; earlier ones are the
    client's to write. Without the header, the connection's own address."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    return entries[-1] if entries else request.META["REMOTE_ADDR"]
