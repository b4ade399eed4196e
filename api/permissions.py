from rest_framework import exceptions, permissions

from teams.models import OrganisationToken, Role

from .models import PersonalAccessToken


class InsufficientScope(exceptions.PermissionDenied):
    default_code = "insufficient_scope"
    default_detail = "This token may only read. Make a token with the 'read and submit' scope to submit."


class TokenMaySubmit(permissions.BasePermission):
    """Writes need a 'submit' token; a signed-in browser session may always write."""

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        token = request.auth
        if isinstance(token, PersonalAccessToken) and not token.can_submit:
            raise InsufficientScope()
        return True


class HasOrganisationToken(permissions.BasePermission):
    """The team API: an organisation token; writes need one with the owner role (teams.access roles)."""

    message = "The team API needs an organisation token: Authorization: Bearer hpo_…"

    def has_permission(self, request, view):
        token = request.auth
        if not isinstance(token, OrganisationToken):
            return False
        if request.method not in permissions.SAFE_METHODS and token.role != Role.OWNER:
            raise ReviewerToken()
        return True


class ReviewerToken(exceptions.PermissionDenied):
    default_code = "insufficient_role"
    default_detail = "This token has the reviewer role: it may only read. An owner token may invite and revoke."
