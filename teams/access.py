"""The one gate between a team member and team data.

Every team view fetches its objects through `scoped_object_or_404`: the lookup
is filtered to organisations the user belongs to, so another organisation's
assessment, candidate or report is a 404, indistinguishable from one that does
not exist. A member whose role is not allowed the action gets a 403.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.shortcuts import get_object_or_404

from .models import ALL_ROLES, CandidateSession, Membership


def scoped_queryset(user, model_or_queryset):
    """`model_or_queryset` narrowed to rows of organisations `user` is a member of."""
    queryset = (
        model_or_queryset if isinstance(model_or_queryset, QuerySet) else model_or_queryset._default_manager.all()
    )
    if not user.is_authenticated:
        return queryset.none()
    path = queryset.model.organisation_path
    prefix = f"{path}__" if path else ""
    return queryset.filter(**{f"{prefix}memberships__user": user})


def membership_for(user, organisation):
    return Membership.objects.filter(user=user, organisation=organisation).first() if user.is_authenticated else None


def scoped_object_or_404(user, model_or_queryset, *, roles=ALL_ROLES, **lookup):
    """Fetch one object of the user's organisations (404 otherwise); raise 403 when
    the user's role there is not in `roles`."""
    obj: Model = get_object_or_404(scoped_queryset(user, model_or_queryset), **lookup)
    membership = membership_for(user, obj.organisation)
    if membership is None or membership.role not in roles:
        raise PermissionDenied("Your role in this organisation does not allow that.")
    return obj


def candidate_session_or_404(user, session_pk):
    """A candidate reaches only their own sittings."""
    if not user.is_authenticated:
        raise PermissionDenied
    return get_object_or_404(
        CandidateSession.objects.select_related("assessment", "invitation"), pk=session_pk, candidate=user
    )
