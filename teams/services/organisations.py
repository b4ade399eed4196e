"""Organisations and their members."""

from django.db import transaction
from django.utils.crypto import get_random_string
from django.utils.text import slugify

from ..models import AuditAction, Membership, Organisation, Role
from . import audit
from .errors import TeamsError


def _unique_slug(name):
    base = slugify(name)[:50] or "team"
    slug = base
    while Organisation.objects.filter(slug=slug).exists():
        slug = f"{base}-{get_random_string(4, 'abcdefghijklmnopqrstuvwxyz0123456789')}"
    return slug


@transaction.atomic
def create_organisation(user, name):
    organisation = Organisation.objects.create(name=name.strip(), slug=_unique_slug(name))
    Membership.objects.create(user=user, organisation=organisation, role=Role.OWNER)
    return organisation


@transaction.atomic
def remove_member(membership, actor):
    """Remove a member; refused when they are the last owner."""
    owners = Membership.objects.select_for_update().filter(organisation=membership.organisation, role=Role.OWNER)
    if membership.role == Role.OWNER and owners.count() == 1:
        raise TeamsError("An organisation needs at least one owner: make someone else an owner first.")
    audit.record(
        membership.organisation, actor, AuditAction.MEMBER_REMOVED, membership.user, detail=f"was {membership.role}"
    )
    membership.delete()
