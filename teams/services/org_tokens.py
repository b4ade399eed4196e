"""Organisation tokens for the team API: made and revoked by an organisation's owners on its
page, presented as `Authorization: Bearer hpo_…`. Only the token's SHA-256 is stored (256
random bits: a slow hash would add nothing); the token is shown once, when it is made."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ..models import AuditAction, OrganisationToken, Role
from . import audit
from .errors import TeamsError
from .invitations import hash_token

TOKEN_PREFIX = "hpo_"
PREFIX_SHOWN = len(TOKEN_PREFIX) + 6
MAX_ACTIVE_TOKENS = 20
#: last_used_at is written at most this often per token.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def active_tokens(organisation):
    return OrganisationToken.objects.filter(organisation=organisation, revoked_at__isnull=True)


@transaction.atomic
def create_token(organisation, name, role, created_by):
    """Returns (row, token). The token itself is never stored: show it once."""
    name = (name or "").strip()
    if not name:
        raise TeamsError("Give the token a name, e.g. 'ATS sync'.")
    if role not in Role.values:
        raise TeamsError(f"Unknown role {role!r}.")
    if active_tokens(organisation).count() >= MAX_ACTIVE_TOKENS:
        raise TeamsError(f"{organisation} has {MAX_ACTIVE_TOKENS} active tokens; revoke one first.")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = OrganisationToken.objects.create(
        organisation=organisation,
        name=name[:60],
        role=role,
        prefix=token[:PREFIX_SHOWN],
        token_hash=hash_token(token),
        created_by=created_by,
    )
    audit.record(organisation, created_by, AuditAction.TOKEN_CREATED, row, detail=f"role {role}")
    return row, token


@transaction.atomic
def revoke_token(organisation, token_id, actor):
    """Revoke one of the organisation's active tokens; False when it has no such token."""
    row = active_tokens(organisation).select_for_update().filter(pk=token_id).first()
    if row is None:
        return False
    row.revoked_at = timezone.now()
    row.save(update_fields=["revoked_at"])
    audit.record(organisation, actor, AuditAction.TOKEN_REVOKED, row)
    return True


def find_token(token):
    """The row for a presented token (whatever its state), or None when it is not an organisation token."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    return OrganisationToken.objects.select_related("organisation").filter(token_hash=hash_token(token)).first()


def mark_used(row):
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        OrganisationToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
