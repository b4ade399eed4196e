from rest_framework import exceptions, permissions

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
