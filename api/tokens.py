"""Making, finding and revoking personal access tokens."""

import hashlib
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .models import PersonalAccessToken, Scope

TOKEN_PREFIX = "hp_"
PREFIX_SHOWN = len(TOKEN_PREFIX) + 6
#: The lifetimes offered on the tokens page, in days.
LIFETIME_CHOICES_DAYS = (7, 30, 90, 365)
MAX_ACTIVE_TOKENS = 20
#: last_used_at is written at most this often per token, not on every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def hash_token(token):
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def active_tokens(user):
    return PersonalAccessToken.objects.filter(user=user, revoked_at__isnull=True, expires_at__gt=timezone.now())


@transaction.atomic
def create_token(user, name, scope, lifetime_days):
    """Returns (row, token). The token itself is never stored: show it once."""
    name = (name or "").strip()
    if not name:
        raise ValidationError("Give the token a name, e.g. 'laptop'.", code="name_required")
    if scope not in Scope.values:
        raise ValidationError(f"Unknown scope {scope!r}.", code="bad_scope")
    if lifetime_days not in LIFETIME_CHOICES_DAYS:
        raise ValidationError(f"A token lives {', '.join(map(str, LIFETIME_CHOICES_DAYS))} days.", code="bad_lifetime")
    if active_tokens(user).count() >= MAX_ACTIVE_TOKENS:
        raise ValidationError(f"You have {MAX_ACTIVE_TOKENS} active tokens; revoke one first.", code="too_many_tokens")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = PersonalAccessToken.objects.create(
        user=user,
        name=name[:60],
        scope=scope,
        prefix=token[:PREFIX_SHOWN],
        token_hash=hash_token(token),
        expires_at=timezone.now() + timedelta(days=lifetime_days),
    )
    return row, token


def revoke_token(user, token_id):
    """Revoke one of the user's own tokens; False when there is no such active token."""
    return bool(
        PersonalAccessToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def find_token(token):
    """The row for a presented token (whatever its state), or None."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    return PersonalAccessToken.objects.select_related("user").filter(token_hash=hash_token(token)).first()


def mark_used(row):
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        PersonalAccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
